#!/usr/bin/env python3
"""Call `storefront serve` with Apple's AppStoreServerAPIClient, pointed at it through the
client's base-URL seam (`_base_url`, server-side reference §1.3).

Reads a JSON document on stdin:

    {"base_url": "http://127.0.0.1:PORT", "bundle_id": "com.example.app", "environment": "SANDBOX",
     "calls": [{"name": "...", "key_file": "AuthKey_X.p8", "key_id": "X", "issuer_id": "...",
                "endpoint": "get_transaction_info", "argument": "2000000000000001", "body": {...}}]}

`environment` (default SANDBOX) is the client's; `body` holds the request model's members for the
endpoints that take one (built into Apple's model classes, so the library serializes them).

An optional `"resolve": {"api.storekit-sandbox.apple.com": "127.0.0.1"}` maps host names to
addresses inside this process, as an /etc/hosts entry would, so an `https://<Apple host>:PORT`
base URL reaches `storefront serve --tls` (trust its root with REQUESTS_CA_BUNDLE).

Writes one JSON array on stdout, for each call:

    {"name": "...", "ok": true, "signed": ["<JWS>", ...], "fields": {...}} or
    {"name": "...", "ok": false, "http_status": 404, "raw_api_error": 4040010, "error_message": "..."}

Exit status: 0 when every call was made, 2 when the library cannot be imported.
"""

import json
import socket
import sys
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)

try:
    import attr
    from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
    from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
    from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
    from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
    from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
    from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
    from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
    from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
    from appstoreserverlibrary.models.RefundPreference import RefundPreference
    from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
    from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
    from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
    from appstoreserverlibrary.models.Subtype import Subtype
except ImportError as error:  # pragma: no cover - reported to the Swift test
    print(f"cannot import app-store-server-library: {error}", file=sys.stderr)
    sys.exit(2)


def extension_request(body):
    return ExtendRenewalDateRequest(
        extendByDays=body["extendByDays"], extendReasonCode=ExtendReasonCode(body["extendReasonCode"]),
        requestIdentifier=body["requestIdentifier"])


def mass_extension_request(body):
    return MassExtendRenewalDateRequest(
        extendByDays=body["extendByDays"], extendReasonCode=ExtendReasonCode(body["extendReasonCode"]),
        requestIdentifier=body["requestIdentifier"], productId=body["productId"],
        storefrontCountryCodes=body.get("storefrontCountryCodes"))


def consumption_request(body):
    return ConsumptionRequest(
        customerConsented=body["customerConsented"], sampleContentProvided=body["sampleContentProvided"],
        deliveryStatus=DeliveryStatus(body["deliveryStatus"]), consumptionPercentage=body.get("consumptionPercentage"),
        refundPreference=RefundPreference(body["refundPreference"]) if "refundPreference" in body else None)


def notification_history_request(body):
    return NotificationHistoryRequest(
        startDate=body["startDate"], endDate=body["endDate"],
        notificationType=NotificationTypeV2(body["notificationType"]) if "notificationType" in body else None,
        notificationSubtype=Subtype(body["notificationSubtype"]) if "notificationSubtype" in body else None,
        transactionId=body.get("transactionId"), onlyFailures=body.get("onlyFailures"))


def attempts(items):
    return [{"attemptDate": item.attemptDate, "sendAttemptResult": item.rawSendAttemptResult} for item in items or []]


def scalars(response):
    """The plain members Apple's model parsed (dates, counts, flags, ids), for the caller to compare."""
    fields = {}
    for field in attr.fields(type(response)):
        name, value = field.name, getattr(response, field.name)
        if isinstance(value, (str, int, bool)):
            fields[name] = value
        elif hasattr(value, "value") and isinstance(value.value, (str, int)):
            fields[name] = value.value
    return fields


def call(request, base_url, bundle_id, environment):
    with open(request["key_file"], "rb") as key:
        signing_key = key.read()
    client = AppStoreServerAPIClient(signing_key, request["key_id"], request["issuer_id"], bundle_id, environment)
    client._base_url = base_url
    body = request.get("body") or {}
    try:
        endpoint = request["endpoint"]
        if endpoint == "extend_subscription_renewal_date":
            response = client.extend_subscription_renewal_date(request["argument"], extension_request(body))
        elif endpoint == "extend_renewal_date_for_all_active_subscribers":
            response = client.extend_renewal_date_for_all_active_subscribers(mass_extension_request(body))
        elif endpoint == "get_status_of_subscription_renewal_date_extensions":
            response = client.get_status_of_subscription_renewal_date_extensions(body["requestIdentifier"], body["productId"])
        elif endpoint == "set_app_account_token":
            response = client.set_app_account_token(
                request["argument"], UpdateAppAccountTokenRequest(appAccountToken=body["appAccountToken"]))
        elif endpoint == "send_consumption_data":
            # The deprecated v1 body: integer codes, set through the models' raw members.
            response = client.send_consumption_data(request["argument"], ConsumptionRequestV1(**body))
        elif endpoint == "get_transaction_history_v1":
            response = client.get_transaction_history(
                request["argument"], None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V1)
        elif endpoint == "send_consumption_information":
            response = client.send_consumption_information(request["argument"], consumption_request(body))
        elif endpoint == "get_transaction_history":
            response = client.get_transaction_history(
                request["argument"], None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        elif endpoint == "get_refund_history":
            response = client.get_refund_history(request["argument"], None)
        elif endpoint == "request_test_notification":
            response = client.request_test_notification()
        elif endpoint == "get_notification_history":
            response = client.get_notification_history(request.get("argument") or None, notification_history_request(body))
        else:
            response = getattr(client, endpoint)(request["argument"])
        result = {"name": request["name"], "ok": True}
        if response is not None:
            result["fields"] = scalars(response)
        # Notifications: each payload as sent and its attempts, as the library parsed them.
        if getattr(response, "sendAttempts", None) is not None:
            result["attempts"] = attempts(response.sendAttempts)
        if getattr(response, "notificationHistory", None) is not None:
            result["history"] = [
                {"signedPayload": item.signedPayload, "attempts": attempts(item.sendAttempts)} for item in response.notificationHistory
            ]
        # What the library parsed: the signed items the caller compares with the ledger's.
        if getattr(response, "signedTransactionInfo", None) is not None:
            result["signed"] = [response.signedTransactionInfo]
        elif getattr(response, "signedTransactions", None) is not None:
            result["signed"] = list(response.signedTransactions)
        elif getattr(response, "signedAppTransactionInfo", None) is not None:
            result["signed"] = [response.signedAppTransactionInfo]
        elif getattr(response, "data", None) is not None:
            result["signed"] = [
                item.signedTransactionInfo for group in response.data for item in (group.lastTransactions or [])
            ] + [item.signedRenewalInfo for group in response.data for item in (group.lastTransactions or [])]
        return result
    except APIException as error:
        return {
            "name": request["name"],
            "ok": False,
            "http_status": error.http_status_code,
            "raw_api_error": error.raw_api_error,
            "error_message": error.error_message,
        }


def resolve_through(mapping):
    """Answers getaddrinfo for the mapped host names with their addresses, like an /etc/hosts entry."""
    original = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        return original(mapping.get(host, host), *args, **kwargs)

    socket.getaddrinfo = getaddrinfo


def main():
    document = json.load(sys.stdin)
    if document.get("resolve"):
        resolve_through(document["resolve"])
    environment = Environment[document.get("environment", "SANDBOX")]
    results = [call(request, document["base_url"], document["bundle_id"], environment) for request in document["calls"]]
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
