// Package parse turns stored transactions and their status metadata into the JSON shapes of
// getTransaction, getBlock and blockSubscribe (the generated rpcapi types): the ledger's stored
// records mapped once (stored.go), whole blocks, the json, jsonParsed, base58 and base64 encodings, the `accounts` transaction details, the memo text of
// getSignaturesForAddress, and the jsonParsed dispatch of instructions to the parser of their
// program's module (runtime.Module's ParseInstruction, in impl/programs/<name>), so a program is
// added to its module, not to the encoder.
//
// Every function is pure (EncodeBlock too: callers hand it the block's records) and never panics on
// what a decoder can produce: instruction data is
// untrusted, and a parser that does not accept it leaves the instruction partially decoded, as
// the reference does.
//
// The shapes follow the reference's 2.x line (Agave transaction-status): top-level instructions
// carry "stackHeight": null, inner ones their real height; computeUnitsConsumed is always sent;
// returnData only when some was set; loadedAddresses for every encoding but jsonParsed;
// transaction-level rewards are an empty list (null when rewards are off).
package parse
