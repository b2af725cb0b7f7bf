// A webhook receiver built on a provider's own Node library with its default settings, for
// tests/it/differential.rs to run `webhook check` against. Binds 127.0.0.1 on a free port and
// prints the port on its first line; 200 when the library accepts a delivery, 400 otherwise.
// argv[2]: the directory holding node_modules; argv[3]: github (@octokit/webhooks-methods) or
// standard (standardwebhooks), or v1a: Standard Webhooks' asymmetric signatures, which no
// official library verifies yet, checked with Node's built-in Ed25519 (node:crypto) and the whpk_
// public key in WEBHOOK_SECRET: any v1a entry that verifies is enough, other entries are skipped.
// The secret comes in WEBHOOK_SECRET.
import { createPublicKey, verify as ed25519Verify } from "node:crypto";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const nodeDir = resolve(process.argv[2]);
const mode = process.argv[3];
const secret = process.env.WEBHOOK_SECRET;
const { Webhook } = createRequire(join(nodeDir, "package.json"))("standardwebhooks");
const octokit = await import(
  pathToFileURL(join(nodeDir, "node_modules/@octokit/webhooks-methods/dist-node/index.js")).href
);

async function verify(headers, body) {
  if (mode === "github") {
    if (!(await octokit.verify(secret, body.toString("utf8"), headers["x-hub-signature-256"]))) {
      throw new Error("octokit: signature does not match");
    }
  } else if (mode === "standard") {
    new Webhook(secret).verify(body, headers);
  } else if (mode === "v1a") {
    verifyV1a(headers, body);
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
}

// The spec's v1a: Ed25519 over `${id}.${timestamp}.${body}`, `whpk_` + base64 of the public key.
function verifyV1a(headers, body) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  if (!id || !/^\d+$/.test(timestamp ?? "")) throw new Error("v1a: missing webhook-id or webhook-timestamp");
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) throw new Error("v1a: timestamp outside tolerance");
  const raw = Buffer.from(secret.replace(/^whpk_/, ""), "base64");
  const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") }, format: "jwk" });
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
  const valid = (headers["webhook-signature"] ?? "")
    .split(" ")
    .filter((entry) => entry.startsWith("v1a,"))
    .some((entry) => {
      const signature = Buffer.from(entry.slice(4), "base64");
      return signature.length === 64 && ed25519Verify(null, signed, key, signature);
    });
  if (!valid) throw new Error("v1a: no valid signature");
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", async () => {
    let status = 200;
    let answer = { ok: true };
    try {
      await verify(request.headers, Buffer.concat(chunks));
    } catch (err) {
      status = 400;
      answer = { error: `${err.name}: ${err.message}` };
    }
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(answer));
  });
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
