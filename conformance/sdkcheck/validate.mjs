// validate.mjs checks an OpenRPC document with an independent implementation, npm @open-rpc/schema-utils-js:
// validateOpenRPCDocument (the document against the OpenRPC meta-schema, with ajv) and parseOpenRPCDocument (which
// validates again and dereferences every $ref). It prints "ok" and exits 0, or prints every problem and exits 1.
//
//	node validate.mjs ../../generated/openrpc.json
import { readFile } from "node:fs/promises";
import schemaUtils from "@open-rpc/schema-utils-js";

const { validateOpenRPCDocument, parseOpenRPCDocument } = schemaUtils;
const path = process.argv[2];
const doc = JSON.parse(await readFile(path, "utf8"));

const problems = [];
const result = validateOpenRPCDocument(structuredClone(doc));
if (result !== true) problems.push(`validateOpenRPCDocument: ${result.message}`);
try {
  const parsed = await parseOpenRPCDocument(structuredClone(doc), { validate: true, dereference: true });
  if (parsed.methods.length !== doc.methods.length) {
    problems.push(`parseOpenRPCDocument: ${parsed.methods.length} methods, want ${doc.methods.length}`);
  }
  // A $ref left after dereferencing would mean one the tool could not resolve. The tool does not look into
  // extensions (x-notification's schema), so those are left out of the scan.
  const standard = JSON.stringify(parsed.methods, (k, v) => (k.startsWith("x-") ? undefined : v));
  const left = standard.match(/"\$ref":"[^"]*"/g);
  if (left) problems.push(`parseOpenRPCDocument left ${left.length} $ref unresolved, e.g. ${left[0]}`);
} catch (e) {
  problems.push(`parseOpenRPCDocument: ${e && e.message ? e.message : e}`);
}
if (problems.length > 0) {
  console.error(`${path}: ${problems.length} problem(s):\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`ok: ${path}, ${doc.methods.length} methods`);
