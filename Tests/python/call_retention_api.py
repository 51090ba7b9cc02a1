#!/usr/bin/env python3
"""Drive `storefront serve`'s Retention Messaging API with Apple's AppStoreServerAPIClient (its
messaging methods, app-store-server-library 3.1.x), pointed at the server through the client's
base-URL seam, in one fixed sequence: images, messages, defaults, the realtime URL and a
performance test.

Reads a JSON document on stdin:

    {"base_url": "http://127.0.0.1:PORT", "bundle_id": "...", "key_file": "...", "key_id": "...",
     "issuer_id": "...", "product_id": "...", "original_transaction_id": "...", "realtime_url": "...",
     "image_id": "<uuid>", "message_id": "<uuid>", "second_message_id": "<uuid>"}

Writes one JSON array on stdout, a result per step:

    {"name": "...", "ok": true, "fields": {...}} or
    {"name": "...", "ok": false, "http_status": 404, "raw_api_error": 4040021}

The performance test's result is asked for until it is no longer PENDING, for at most 60 s
(each ask is a request to the server, not a sleep). Exit status 2 when the library cannot be imported.
"""

import json
import sys
import time
import uuid
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)

try:
    import attr
    from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody
    from appstoreserverlibrary.models.UploadMessageImage import UploadMessageImage
    from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
    from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
    from appstoreserverlibrary.models.PerformanceTestRequest import PerformanceTestRequest
    from appstoreserverlibrary.models.ImageSize import ImageSize
except ImportError as error:  # pragma: no cover - reported to the Swift test
    print(f"cannot import app-store-server-library: {error}", file=sys.stderr)
    sys.exit(2)

# The smallest PNG: the signature and an IHDR chunk are all the server looks at.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108020000009077" "53de")


def plain(value):
    """A model member as JSON: enums by value, UUIDs as text, nested models as objects."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if hasattr(value, "value") and isinstance(value.value, (str, int)):
        return value.value
    if attr.has(type(value)):
        return fields(value)
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {str(plain(key)): plain(item) for key, item in value.items()}
    return str(value)


def fields(response):
    """The members Apple's model parsed (raw twins left out), for the caller to compare."""
    if response is None:
        return None
    return {field.name: plain(getattr(response, field.name)) for field in attr.fields(type(response))
            if not field.name.startswith("raw") and getattr(response, field.name) is not None}


def step(results, name, action):
    try:
        response = action()
        results.append({"name": name, "ok": True, "fields": fields(response)})
        return response
    except APIException as error:
        results.append({"name": name, "ok": False, "http_status": error.http_status_code,
                        "raw_api_error": error.raw_api_error})
        return None


def main():
    d = json.load(sys.stdin)
    with open(d["key_file"], "rb") as key:
        signing_key = key.read()
    client = AppStoreServerAPIClient(signing_key, d["key_id"], d["issuer_id"], d["bundle_id"], Environment.SANDBOX)
    client._base_url = d["base_url"]
    image, message, second = uuid.UUID(d["image_id"]), uuid.UUID(d["message_id"]), uuid.UUID(d["second_message_id"])
    product = d["product_id"]
    r = []
    step(r, "upload image", lambda: client.upload_image(image, PNG, ImageSize.FULL_SIZE))
    step(r, "upload image again", lambda: client.upload_image(image, PNG))
    step(r, "upload a non-PNG image", lambda: client.upload_image(uuid.uuid4(), b"GIF89a"))
    step(r, "list images", lambda: client.get_image_list())
    step(r, "upload message", lambda: client.upload_message(message, UploadMessageRequestBody(
        header="Before you go", body="Keep your streak: 3 months at half price.",
        image=UploadMessageImage(imageIdentifier=image, altText="A streak flame"))))
    step(r, "upload message naming an unknown image", lambda: client.upload_message(uuid.uuid4(), UploadMessageRequestBody(
        header="H", body="B", image=UploadMessageImage(imageIdentifier=uuid.uuid4(), altText="x"))))
    step(r, "upload second message", lambda: client.upload_message(second, UploadMessageRequestBody(
        header="Try Yearly", body="Switch to yearly and save.")))
    step(r, "list messages", lambda: client.get_message_list())
    step(r, "delete image in use", lambda: client.delete_image(image))
    step(r, "configure default", lambda: client.configure_default_message(
        product, "en-US", DefaultConfigurationRequest(messageIdentifier=message)))
    step(r, "get default", lambda: client.get_default_message(product, "en-US"))
    step(r, "get default of another locale", lambda: client.get_default_message(product, "fr-FR"))
    step(r, "configure default with a bad locale", lambda: client.configure_default_message(
        product, "e", DefaultConfigurationRequest(messageIdentifier=message)))
    step(r, "configure default with an unknown message", lambda: client.configure_default_message(
        product, "en-GB", DefaultConfigurationRequest(messageIdentifier=uuid.uuid4())))
    step(r, "get realtime URL before one is set", lambda: client.get_realtime_url())
    step(r, "performance test without a URL", lambda: client.initiate_performance_test(
        PerformanceTestRequest(originalTransactionId=d["original_transaction_id"])))
    step(r, "configure realtime URL", lambda: client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=d["realtime_url"])))
    step(r, "get realtime URL", lambda: client.get_realtime_url())
    step(r, "performance test of an unknown transaction", lambda: client.initiate_performance_test(
        PerformanceTestRequest(originalTransactionId="2000000099999999")))
    started = step(r, "initiate performance test", lambda: client.initiate_performance_test(
        PerformanceTestRequest(originalTransactionId=d["original_transaction_id"])))
    if started is not None:
        deadline = time.monotonic() + 60
        while True:
            result = client.get_performance_test_results(started.requestId)
            if result.rawResult != "PENDING" or time.monotonic() > deadline:
                break
        r.append({"name": "performance test result", "ok": True, "fields": fields(result)})
    step(r, "result of an unknown test", lambda: client.get_performance_test_results(str(uuid.uuid4())))
    step(r, "delete second message", lambda: client.delete_message(second))
    step(r, "delete second message again", lambda: client.delete_message(second))
    json.dump(r, sys.stdout)


if __name__ == "__main__":
    main()
