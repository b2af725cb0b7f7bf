// A webhook receiver built on a provider's own Node library with its default settings, for
// tests/it/differential.rs to run `webhook check` against. Binds 127.0.0.1 on a free port and
// prints the port on its first line; 200 when the library accepts a delivery, 400 otherwise.
// argv[2]: the directory holding node_modules; argv[3]: github (@octokit/webhooks-methods) or
// standard (standardwebhooks). The secret comes in WEBHOOK_SECRET.
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
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
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
