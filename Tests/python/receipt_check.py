#!/usr/bin/env python3
"""Reads Storefront app receipts the way a backend would, with no Storefront code.

stdin: {"receipts": [{"name": ..., "base64": ...}]}
stdout: a JSON list, one object per receipt: "transaction_id" from Apple's
ReceiptUtility.extract_transaction_id_from_app_receipt (or "error"), and every attribute decoded
by asn1crypto: "attributes" [{"type", "version", "value"}] with the in-app purchase receipts
(type 17) as nested lists. Values: str for UTF8String/IA5String, int for INTEGER, hex for raw bytes.
"""
import json
import sys

from appstoreserverlibrary.receipt_utility import ReceiptUtility
from asn1crypto import cms, core


class ReceiptAttribute(core.Sequence):
    _fields = [("type", core.Integer), ("version", core.Integer), ("value", core.OctetString)]


class ReceiptAttributes(core.SetOf):
    _child_spec = ReceiptAttribute


RAW = {4, 5}


def value(kind, octets):
    if kind in RAW:
        return octets.hex()
    if kind == 17:
        return attributes(octets)
    parsed = core.load(octets)
    if isinstance(parsed, (core.UTF8String, core.IA5String)):
        return parsed.native
    if isinstance(parsed, core.Integer):
        return parsed.native
    return octets.hex()


def attributes(der):
    return [
        {"type": a["type"].native, "version": a["version"].native, "value": value(a["type"].native, a["value"].native)}
        for a in ReceiptAttributes.load(der)
    ]


def check(case):
    import base64

    result = {"name": case["name"]}
    try:
        result["transaction_id"] = ReceiptUtility().extract_transaction_id_from_app_receipt(case["base64"])
    except Exception as error:  # Apple's utility raises ValueError on a malformed receipt
        result["error"] = repr(error)
    info = cms.ContentInfo.load(base64.b64decode(case["base64"]))
    result["content_type"] = info["content_type"].dotted
    signed = info["content"]
    result["signers"] = [s["sid"].chosen.native["serial_number"] for s in signed["signer_infos"]]
    result["certificates"] = [c.chosen.subject.native.get("common_name") for c in signed["certificates"]]
    result["attributes"] = attributes(signed["encap_content_info"]["content"].native)
    return result


def main():
    request = json.load(sys.stdin)
    json.dump([check(case) for case in request["receipts"]], sys.stdout, default=str)


if __name__ == "__main__":
    main()
