// Package jsonrpc owns ledgerd's JSON-RPC 2.0 transports: the HTTP endpoint (POST, CORS, /health,
// /openrpc.json) and the PubSub WebSocket endpoint. It decodes requests and batches, enforces the
// reference node's limits and error texts, and encodes replies; what a method does is the job of a
// Dispatcher, which this package never imports.
//
// Behaviour follows Agave's RPC service (jsonrpc-http-server and jsonrpc-core underneath); the
// reference facts are in docs/reference-behaviour.md, sections 1.2, 2.1, 2.2 and 4.1.
package jsonrpc
