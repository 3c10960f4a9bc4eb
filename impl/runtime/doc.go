// Package runtime executes one sanitized transaction against a source of accounts, the way
// the reference validator (Agave's SVM and program runtime) does, without knowing about banks,
// slots or storage:
//
//   - account locks, the blockhash or durable-nonce check, compute budget instructions, the fee
//     (5000 lamports per signature plus the priority fee), fee payer validation;
//   - account loading with the loaded-data-size limit (SIMD-0186) and program account checks;
//   - instruction execution through native programs registered by program id, with the
//     account rules of the reference's BorrowedAccount (only the owner changes data, debits
//     lamports or assigns; read-only and signer flags; balanced instructions), compute
//     metering, cross-program invocation with privilege checks up to stack height 5, the
//     instruction trace (inner instructions), return data and the log collector;
//   - rent-state transitions after execution, and the account writes to commit: everything
//     writable on success, only the fee payer (and an advanced nonce) on failure.
//
// Errors are the reference's TransactionError and InstructionError values with their exact
// serde JSON and Display texts. Programs plug in as modules (module.go: execution, genesis
// account, jsonParsed parsers) gathered in a Registry; a program account no module runs is run
// by the module of the loader that owns it. The programs live in impl/programs; the runtime's
// own foundations, the durable-nonce layout (nonce) and the compute budget codec
// (computebudget), are subpackages here, so the runtime imports no program.
package runtime
