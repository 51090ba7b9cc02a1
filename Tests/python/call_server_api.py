#!/usr/bin/env python3
"""Call `storefront serve` with Apple's AppStoreServerAPIClient, pointed at it through the
client's base-URL seam (`_base_url`, server-side reference §1.3).

Reads a JSON document on stdin:

    {"base_url": "http://127.0.0.1:PORT", "bundle_id": "com.example.app",
     "calls": [{"name": "...", "key_file": "AuthKey_X.p8", "key_id": "X", "issuer_id": "...",
                "endpoint": "get_transaction_info", "argument": "2000000000000001"}]}

An optional `"resolve": {"api.storekit-sandbox.apple.com": "127.0.0.1"}` maps host names to
addresses inside this process, as an /etc/hosts entry would, so an `https://<Apple host>:PORT`
base URL reaches `storefront serve --tls` (trust its root with REQUESTS_CA_BUNDLE).

and writes one JSON array on stdout, for each call:

    {"name": "...", "ok": true, "signed": ["<JWS>", ...]} or
    {"name": "...", "ok": false, "http_status": 404, "raw_api_error": 4040010, "error_message": "..."}

Exit status: 0 when every call was made, 2 when the library cannot be imported.
"""

import json
import socket
import sys
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)

try:
    from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
    from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
except ImportError as error:  # pragma: no cover - reported to the Swift test
    print(f"cannot import app-store-server-library: {error}", file=sys.stderr)
    sys.exit(2)


def call(request, base_url, bundle_id):
    with open(request["key_file"], "rb") as key:
        signing_key = key.read()
    client = AppStoreServerAPIClient(signing_key, request["key_id"], request["issuer_id"], bundle_id, Environment.SANDBOX)
    client._base_url = base_url
    try:
        endpoint = request["endpoint"]
        if endpoint == "get_transaction_history":
            response = client.get_transaction_history(
                request["argument"], None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
        elif endpoint == "get_refund_history":
            response = client.get_refund_history(request["argument"], None)
        else:
            response = getattr(client, endpoint)(request["argument"])
        result = {"name": request["name"], "ok": True}
        # What the library parsed: the signed items the caller compares with the ledger's.
        if getattr(response, "signedTransactionInfo", None) is not None:
            result["signed"] = [response.signedTransactionInfo]
        elif getattr(response, "signedTransactions", None) is not None:
            result["signed"] = list(response.signedTransactions)
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
    results = [call(request, document["base_url"], document["bundle_id"]) for request in document["calls"]]
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
