#!/usr/bin/env python3
"""Sign App Store requests with Apple's App Store Server Library, as a developer's server does.

Reads a JSON document on stdin:

    {"key_pem": "-----BEGIN ...", "key_id": "STOREFRONT", "issuer_id": "...", "bundle_id": "com.example.app",
     "requests": [{"kind": "promotional-offer", "product_id": "...", "offer_id": "...", "transaction_id": "..." | null},
                  {"kind": "introductory-offer-eligibility", "product_id": "...", "allow": true, "transaction_id": "..."}]}

and writes one JSON array on stdout: the compact JWS of each request, in order, made by
`PromotionalOfferV2SignatureCreator` and `IntroductoryOfferEligibilitySignatureCreator`.

Exit status: 0 when every request was signed, 2 when the library cannot be imported.
"""

import json
import sys

try:
    from appstoreserverlibrary.jws_signature_creator import (
        IntroductoryOfferEligibilitySignatureCreator,
        PromotionalOfferV2SignatureCreator,
    )
except ImportError as error:  # pragma: no cover - the venv is made by the tests
    print(f"cannot import Apple's library: {error}", file=sys.stderr)
    sys.exit(2)


def main() -> None:
    document = json.load(sys.stdin)
    key = document["key_pem"].encode("utf-8")
    common = dict(signing_key=key, key_id=document["key_id"], issuer_id=document["issuer_id"], bundle_id=document["bundle_id"])
    promotional = PromotionalOfferV2SignatureCreator(**common)
    eligibility = IntroductoryOfferEligibilitySignatureCreator(**common)
    signed = []
    for request in document["requests"]:
        if request["kind"] == "promotional-offer":
            signed.append(promotional.create_signature(request["product_id"], request["offer_id"], request.get("transaction_id")))
        else:
            signed.append(eligibility.create_signature(request["product_id"], request["allow"], request["transaction_id"]))
    json.dump(signed, sys.stdout)


if __name__ == "__main__":
    main()
