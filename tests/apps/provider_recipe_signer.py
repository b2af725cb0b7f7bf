"""Signs a message the way a provider's documentation says to, with Python's own hmac module, so
the tests compare webhook's signatures with an implementation that shares none of its code.
Arguments: ALGORITHM (sha1|sha256|sha512) ENCODING (hex|base64) SECRET MESSAGE; prints the tag."""
import base64, hashlib, hmac, sys

algorithm, encoding, secret, message = sys.argv[1:5]
tag = hmac.new(secret.encode(), message.encode(), getattr(hashlib, algorithm)).digest()
print(tag.hex() if encoding == "hex" else base64.b64encode(tag).decode())
