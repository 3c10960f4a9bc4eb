// Package encoding owns how an account is shown over RPC and PubSub: the UiAccount wrapper
// (lamports, owner, executable, rentEpoch, space), the `data` field in each account encoding
// (binary, base58, base64, base64+zstd, jsonParsed), dataSlice, and the jsonParsed dispatch
// that hands an account to the parser of its owner's program module.
//
// The behaviour is the reference node's (Agave's account-decoder and rpc.rs; see
// docs/reference-behaviour.md §3 and §2.3), because clients decode these replies and
// compare them with what the reference sends. The points that look odd on their own:
//
//   - `binary` is the legacy encoding and the default of most account methods. Its data is a
//     bare base-58 string, not a [data, encoding] pair; clients still depend on that shape.
//   - dataSlice is applied before anything else, and the 128-byte base-58 limit is checked on
//     the sliced data: a slice of a large account may be asked for in base58. HTTP methods
//     answer an oversized request with -32600; a PubSub notification cannot fail, so there the
//     data becomes the text "error: data too large for bs58 encoding" (Options.Notification).
//   - `space` is always the full data length, whatever the slice.
//   - base64+zstd compresses the sliced data (zstd default level, as the reference's level 0
//     means). Some clients' tests compare the strings, so the frame is written as libzstd's
//     streaming encoder writes it: the same header (no content size, a 2 MiB window; a known
//     size of 0 for empty data), and the block libzstd's level 3 writes (zstdref.go: its
//     double-fast match finder, raw literals, predefined sequence tables) whenever that block
//     is one this package reproduces exactly: up to 128 KiB, literals libzstd would not
//     Huffman-code, fewer than 32 sequences. Other data gets klauspost/compress's blocks, which
//     decode to the same bytes but are not libzstd's. If compression is impossible the reply
//     falls back to plain base64, saying so in the encoding name.
//   - jsonParsed asks the account parser of the owner's module. A successful parse ignores
//     dataSlice; any failure (no parser, data that does not decode) falls back to
//     ["<base64 of the sliced data>","base64"]. That is why a plain system wallet shows
//     ["","base64"]: the system program's parser only understands nonce accounts.
//   - Parsers return trees of map[string]any, so keys come out sorted as the reference's
//     serde_json::Value (a BTreeMap) sorts them ("info" before "type"). Amounts that could
//     exceed 2^53 are decimal strings where the reference makes them strings
//     (lamportsPerSignature, lamportsPerByte, the epoch-rewards totals), and floats are
//     written as serde_json writes them (2.0, not 2): see rpcapi.Float.
//   - The nonce parser rejects an uninitialized nonce, as the reference does since it stopped
//     reading any zeroed system account of the right size as a nonce: such accounts fall back
//     to base64.
//   - The sysvar parser picks the layout by the account's address, not its owner (every sysvar
//     is owned by Sysvar1111…), so parsers receive the address as well as the data.
//
// The parsers themselves belong to the program modules (impl/programs/<name>, runtime.Module's
// ParseAccount): spl-token and spl-token-2022, nonce (system), address-lookup-table, config,
// sysvar and bpf-upgradeable-loader; a module without one (vote and stake today) is a listed
// gap. Options.Programs picks the module list, by default the shipped one, the list the node
// runs. A parser that needs other accounts (the token parser needs the mint's decimals, and
// the Clock for interest-bearing and scaled mints) reads them through the Lookup the caller
// passes in Options; without one, token accounts fall back to base64. token.go forwards the
// token views RPC methods read besides jsonParsed.
package encoding
