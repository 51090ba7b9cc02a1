#!/usr/bin/env python3
"""Verify Storefront's signed data with Apple's App Store Server Library.

Reads a JSON document on stdin:

    {"cases": [{"name": "...", "kind": "transaction" | "renewal" | "notification" | "appTransaction" | "realtime", "jws": "...",
                "root_der": "/path/to/root.der", "bundle_id": "com.example.app",
                "environment": "SANDBOX"}]}

and writes one JSON array on stdout with, for each case, Apple's verdict:

    {"name": "...", "status": 0, "cause": null, "decoded": {...}}

`status` is 0 when `SignedDataVerifier` accepted the JWS, else the `VerificationStatus` value of
the `VerificationException` (1 verification failure, 2 invalid app identifier, ...). `decoded`
holds a few fields of the decoded model so the caller can cross-check them.

Exit status: 0 when every case was evaluated, 2 when the library cannot be imported.
"""

import json
import sys
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", category=DeprecationWarning)  # pyOpenSSL X509Store noise

try:
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
except ImportError as error:  # pragma: no cover - reported to the Swift test
    print(f"cannot import app-store-server-library: {error}", file=sys.stderr)
    sys.exit(2)


def enum_value(value):
    return getattr(value, "value", value)


def notification_fields(model):
    part = model.data or model.summary or getattr(model, "appData", None)
    return {
        "notificationType": model.rawNotificationType,
        "subtype": model.rawSubtype,
        "notificationUUID": model.notificationUUID,
        "version": model.version,
        "signedDate": model.signedDate,
        "environment": enum_value(part.environment) if part else None,
        "bundleId": part.bundleId if part else None,
        "appAppleId": part.appAppleId if part else None,
        "signedTransactionInfo": model.data.signedTransactionInfo if model.data else None,
        "signedRenewalInfo": model.data.signedRenewalInfo if model.data else None,
        "status": enum_value(model.data.status) if model.data else None,
        "productId": model.summary.productId if model.summary else None,
    }


def decoded_fields(kind, model):
    if kind == "realtime":
        return {
            "originalTransactionId": model.originalTransactionId,
            "appAppleId": model.appAppleId,
            "productId": model.productId,
            "userLocale": model.userLocale,
            "requestIdentifier": str(model.requestIdentifier),
            "environment": model.rawEnvironment,
            "signedDate": model.signedDate,
        }
    if kind == "notification":
        return notification_fields(model)
    if kind == "appTransaction":
        return {
            "bundleId": model.bundleId,
            "environment": model.rawReceiptType,
            "appTransactionId": model.appTransactionId,
            "purchaseDate": model.originalPurchaseDate,
        }
    if kind == "transaction":
        return {
            "transactionId": model.transactionId,
            "originalTransactionId": model.originalTransactionId,
            "bundleId": model.bundleId,
            "productId": model.productId,
            "price": model.price,
            "currency": model.currency,
            "quantity": model.quantity,
            "rawType": model.rawType,
            "environment": enum_value(model.environment),
            "signedDate": model.signedDate,
            "purchaseDate": model.purchaseDate,
            "inAppOwnershipType": model.rawInAppOwnershipType,
            "appTransactionId": model.appTransactionId,
            "revocationType": model.rawRevocationType,
            "revocationPercentage": model.revocationPercentage,
            "offerPeriod": model.offerPeriod,
            "billingPlanType": model.rawBillingPlanType,
            "webOrderLineItemId": model.webOrderLineItemId,
            # API 1.21 (app-store-server-library 3.1.x): TransactionCommitmentInfo.
            "commitmentInfo": None if model.commitmentInfo is None else {
                "billingPeriodNumber": model.commitmentInfo.billingPeriodNumber,
                "commitmentExpiresDate": model.commitmentInfo.commitmentExpiresDate,
                "commitmentPrice": model.commitmentInfo.commitmentPrice,
                "totalBillingPeriods": model.commitmentInfo.totalBillingPeriods,
            },
        }
    return {
        "originalTransactionId": model.originalTransactionId,
        "productId": model.productId,
        "autoRenewProductId": model.autoRenewProductId,
        "autoRenewStatus": enum_value(model.autoRenewStatus),
        "renewalPrice": model.renewalPrice,
        "environment": enum_value(model.environment),
        "signedDate": model.signedDate,
        "isInBillingRetryPeriod": model.isInBillingRetryPeriod,
        "gracePeriodExpiresDate": model.gracePeriodExpiresDate,
        "priceIncreaseStatus": model.rawPriceIncreaseStatus,
        "eligibleWinBackOfferIds": model.eligibleWinBackOfferIds,
        "offerPeriod": model.offerPeriod,
        # API 1.21: renewalBillingPlanType and RenewalCommitmentInfo.
        "renewalBillingPlanType": model.rawRenewalBillingPlanType,
        "commitmentInfo": None if model.commitmentInfo is None else {
            "commitmentAutoRenewProductId": model.commitmentInfo.commitmentAutoRenewProductId,
            "commitmentAutoRenewStatus": model.commitmentInfo.rawCommitmentAutoRenewStatus,
            "commitmentRenewalBillingPlanType": model.commitmentInfo.rawCommitmentRenewalBillingPlanType,
            "commitmentRenewalDate": model.commitmentInfo.commitmentRenewalDate,
            "commitmentRenewalPrice": model.commitmentInfo.commitmentRenewalPrice,
        },
    }


def evaluate(case):
    root = Path(case["root_der"]).read_bytes()
    verifier = SignedDataVerifier(
        root_certificates=[root],
        enable_online_checks=False,
        environment=Environment[case.get("environment", "SANDBOX")],
        bundle_id=case["bundle_id"],
        # Production needs an app id; transactions and renewal info do not carry one to compare.
        app_apple_id=case.get("app_apple_id", 1234567890) if case.get("environment") == "PRODUCTION" else None,
    )
    try:
        if case["kind"] == "notification":
            model = verifier.verify_and_decode_notification(case["jws"])
        elif case["kind"] == "transaction":
            model = verifier.verify_and_decode_signed_transaction(case["jws"])
        elif case["kind"] == "appTransaction":
            model = verifier.verify_and_decode_app_transaction(case["jws"])
        elif case["kind"] == "realtime":
            model = verifier.verify_and_decode_realtime_request(case["jws"])
        else:
            model = verifier.verify_and_decode_renewal_info(case["jws"])
    except VerificationException as error:
        cause = error.__cause__
        return {
            "name": case["name"],
            "status": int(error.status),
            "cause": f"{type(cause).__name__}: {cause}" if cause is not None else None,
            "decoded": None,
        }
    verdict = {"name": case["name"], "status": 0, "cause": None, "decoded": decoded_fields(case["kind"], model)}
    if case["kind"] == "transaction":
        verdict["bundle"] = bundle_fields(model, case["jws"])
        verdict["offer"] = offer_fields(model)
    return verdict


def offer_fields(model):
    """A transaction's offer as Apple's models read it (offer codes: OFFER_CODE, ONE_TIME)."""
    return {
        "offerType": model.rawOfferType,
        "offerTypeName": model.offerType.name if model.offerType is not None else None,
        "offerIdentifier": model.offerIdentifier,
        "offerDiscountType": model.rawOfferDiscountType,
        "offerDiscountTypeKnown": model.offerDiscountType is not None,
    }


# Subscription bundle fields (iOS 27, DECISIONS §47). app-store-server-library 3.1.2's
# JWSTransactionDecodedPayload has no such attributes, so they are read from the JWS's payload JSON,
# after SignedDataVerifier accepted it.
BUNDLE_FIELDS = [
    "bundleProductId",
    "bundleTransactionId",
    "bundleOriginalTransactionId",
    "bundleSubscriptionGroupIdentifier",
    "previousOriginalTransactionId",
]


def bundle_fields(model, jws):
    import base64

    part = jws.split(".")[1]
    payload = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    fields = {field: getattr(model, field, None) or payload.get(field) for field in BUNDLE_FIELDS}
    fields["revocationReason"] = model.rawRevocationReason
    return fields


def main():
    request = json.load(sys.stdin)
    json.dump([evaluate(case) for case in request["cases"]], sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
