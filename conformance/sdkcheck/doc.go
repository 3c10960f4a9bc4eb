// Package sdkcheck holds the checks of what the generator publishes for other languages, run by go test with
// pinned npm tools (package.json, package-lock.json): tsc type-checks the TypeScript SDK (generated/sdk/typescript)
// and a user's file (usage.ts), which then runs against a stub node; and @open-rpc/schema-utils-js, an OpenRPC
// implementation independent of ours, validates generated/openrpc.json. The test skips only when node or npm is
// not installed.
package sdkcheck
