// Package token runs SPL Token (TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA) and Token-2022
// (TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb) natively, as on-chain programs of the runtime,
// with the programs' account layouts, instruction encodings, order of checks, error codes and
// log lines:
//
//   - the base state: Mint (82 bytes), Account (165) and Multisig (355), COption fields (SPL
//     Token's pack keeps the old value bytes behind a none tag; Token-2022's Pod types zero
//     them), native (wrapped SOL) accounts whose amount mirrors their lamports above the
//     rent-exempt reserve;
//   - Token-2022's extensions: after the 165-byte base area (mints padded with zeros, so a
//     mint with extensions is never mistaken for an account) comes the account type byte,
//     then TLV entries (u16 type, u16 length, value); see SupportedExtensions;
//   - every base instruction, Batch, CreateNativeMint, WithdrawExcessLamports, UnwrapLamports,
//     the extension instructions of the supported extensions, the token-metadata and token-group
//     interfaces, and a mint's transfer hook (hook.go: the hook program invoked with the extra
//     accounts its validation account lists); the confidential extensions' instructions
//     (t22_confidential.go, t22_confidential_more.go: they read the contexts of proofs the ZK
//     ElGamal proof program verified, or an ElGamal registry account, and do the ciphertext
//     arithmetic on Ristretto255);
//   - the logs: "Instruction: <Name>" (SPL Token decodes the data first; Token-2022 logs first
//     and then decodes), the extensions' own lines, and on failure the entrypoint's
//     "Error: ..." line, which runtime errors (account rules applied when the program's
//     accounts are written back, compute, failed invocations) do not get.
//
// The programs work on copies of their accounts and write back only what changed, in
// instruction order (lamports, data, owner), as the BPF loader does after an sBPF program
// returns: a read-only account left unchanged is no error.
//
// Compute units are estimates (see compute.go). MemoTransfer's check reads the instruction
// processed just before the transfer at the same stack height (the runtime's processed sibling
// instructions, as the reference's sol_get_processed_sibling_instruction): unless it is a memo,
// a transfer to an account that requires memos fails with NoMemo.
//
// For other packages: UnpackMint, UnpackAccount, UnpackMultisig and AccountMintOwner decode
// state; ParseExtensions and Extension.Value decode Token-2022 extensions; Decode decodes
// instruction data; the builders (Transfer, TransferChecked, InitializeMint2, ...) make
// instructions.
//
// Modules (exec.go) are both programs as the node assembles them, with their jsonParsed views:
// accounts (parse_account.go, parse_extensions.go, uiamount.go: "spl-token" and
// "spl-token-2022") and instructions (parse_instruction.go: "spl-token" for both), as the
// reference's account decoder and parse_token show them. The views decode the layouts
// themselves, apart from the program's state.go and extension.go: they came from impl/encoding
// and impl/parse whole, and merging the two decoders is a change of its own, to be made with the
// parity tests over both.
package token
