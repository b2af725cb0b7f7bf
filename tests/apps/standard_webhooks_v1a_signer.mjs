// Signs like a Standard Webhooks v1a sender would, with Node's built-in Ed25519 from the `whsk_`
// key's seed: arguments SECRET ID TIMESTAMP BODY; prints the webhook-signature value (a v1 entry
// the public key cannot check, then the v1a one).
import crypto from "node:crypto";

const [secret, id, timestamp, body] = process.argv.slice(2);
const pair = Buffer.from(secret.replace(/^whsk_/, ""), "base64");
const key = crypto.createPrivateKey({
  key: { kty: "OKP", crv: "Ed25519", d: pair.subarray(0, 32).toString("base64url"), x: pair.subarray(32).toString("base64url") },
  format: "jwk",
});
const signature = crypto.sign(null, Buffer.from(`${id}.${timestamp}.${body}`), key);
process.stdout.write(`v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= v1a,${signature.toString("base64")}`);
