package runtime_test

import (
	"encoding/json"
	"errors"
	"testing"

	"ledgerd/impl/runtime"
)

func TestTransactionErrorJSONAndDisplay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err     *runtime.TransactionError
		json    string
		display string
	}{
		{runtime.NewTransactionError(runtime.TxBlockhashNotFound), `"BlockhashNotFound"`, "Blockhash not found"},
		{runtime.InstructionErrorAt(0, runtime.CustomError(1)), `{"InstructionError":[0,{"Custom":1}]}`,
			"Error processing Instruction 0: custom program error: 0x1"},
		{runtime.InstructionErrorAt(3, runtime.CustomError(0x1771)), `{"InstructionError":[3,{"Custom":6001}]}`,
			"Error processing Instruction 3: custom program error: 0x1771"},
		{runtime.InstructionErrorAt(1, runtime.ErrInvalidAccountData), `{"InstructionError":[1,"InvalidAccountData"]}`,
			"Error processing Instruction 1: invalid account data for instruction"},
		{runtime.InstructionErrorAt(0, runtime.ErrBorshIoError), `{"InstructionError":[0,"BorshIoError"]}`,
			"Error processing Instruction 0: Failed to serialize or deserialize account data"},
		{runtime.InsufficientFundsForRentError(2), `{"InsufficientFundsForRent":{"account_index":2}}`,
			"Transaction results in an account (2) with insufficient funds for rent"},
		{runtime.DuplicateInstructionError(0), `{"DuplicateInstruction":0}`,
			"Transaction contains a duplicate instruction (0) that is not allowed"},
		{runtime.ProgramExecutionTemporarilyRestrictedError(4), `{"ProgramExecutionTemporarilyRestricted":{"account_index":4}}`,
			"Execution of the program referenced by account at index 4 is temporarily restricted."},
		{runtime.NewTransactionError(runtime.TxAccountNotFound), `"AccountNotFound"`,
			"Attempt to debit an account but found no record of a prior credit."},
		{runtime.NewTransactionError(runtime.TxInsufficientFundsForFee), `"InsufficientFundsForFee"`, "Insufficient funds for fee"},
		{runtime.NewTransactionError(runtime.TxAlreadyProcessed), `"AlreadyProcessed"`, "This transaction has already been processed"},
		{runtime.NewTransactionError(runtime.TxAccountLoadedTwice), `"AccountLoadedTwice"`, "Account loaded twice"},
		{runtime.NewTransactionError(runtime.TxTooManyAccountLocks), `"TooManyAccountLocks"`, "Transaction locked too many accounts"},
		{runtime.NewTransactionError(runtime.TxSanitizeFailure), `"SanitizeFailure"`,
			"Transaction failed to sanitize accounts offsets correctly"},
		{runtime.NewTransactionError(runtime.TxUnbalancedTransaction), `"UnbalancedTransaction"`,
			"Sum of account balances before and after transaction do not match"},
		{runtime.NewTransactionError(runtime.TxInvalidLoadedAccountsDataSizeLimit), `"InvalidLoadedAccountsDataSizeLimit"`,
			"LoadedAccountsDataSizeLimit set for transaction must be greater than 0."},
		{runtime.NewTransactionError(runtime.TxCommitCancelled), `"CommitCancelled"`, "CommitCancelled"},
	}
	for _, tc := range tests {
		b, err := json.Marshal(tc.err)
		if err != nil {
			t.Fatalf("marshal %v: %v", tc.err, err)
		}
		if string(b) != tc.json {
			t.Errorf("json = %s, want %s", b, tc.json)
		}
		if got := tc.err.Error(); got != tc.display {
			t.Errorf("display = %q, want %q", got, tc.display)
		}
		var back runtime.TransactionError
		if err := json.Unmarshal(b, &back); err != nil || back != *tc.err {
			t.Errorf("unmarshal %s = %+v, %v", b, back, err)
		}
		bin, err := tc.err.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var fromBin runtime.TransactionError
		if err := fromBin.UnmarshalBinary(bin); err != nil || fromBin != *tc.err {
			t.Errorf("bincode round trip of %s = %+v, %v", tc.json, fromBin, err)
		}
	}
}

// Every variant has a name and a Display text, round-trips through JSON and bincode.
func TestAllVariantsRoundTrip(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for k := runtime.InstructionErrorKind(0); k.Name() != "InstructionErrorKind("+itoa(int(k))+")"; k++ {
		e := runtime.InstructionError{Kind: k}
		if k == runtime.IxCustom {
			e.Code = 42
		}
		if e.Error() == "" || seen[k.Name()] {
			t.Errorf("kind %d: name %q display %q", k, k.Name(), e.Error())
		}
		seen[k.Name()] = true
		tx := runtime.InstructionErrorAt(7, e)
		b, _ := json.Marshal(tx)
		var back runtime.TransactionError
		if err := json.Unmarshal(b, &back); err != nil || back != *tx {
			t.Errorf("%s: %+v %v", b, back, err)
		}
	}
	if len(seen) != 55 {
		t.Errorf("InstructionError variants = %d, want 55", len(seen))
	}
	n := 0
	for k := runtime.TransactionErrorKind(0); k.Name() != "TransactionErrorKind("+itoa(int(k))+")"; k++ {
		n++
		e := runtime.TransactionError{Kind: k, Index: 1}
		if e.Error() == "" {
			t.Errorf("kind %d has no display", k)
		}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var back runtime.TransactionError
		if err := json.Unmarshal(b, &back); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
	if n != 39 {
		t.Errorf("TransactionError variants = %d, want 39", n)
	}
}

func TestInstructionErrorCompat(t *testing.T) {
	t.Parallel()
	var e runtime.InstructionError
	if err := json.Unmarshal([]byte(`{"BorshIoError":"unexpected length"}`), &e); err != nil || e != runtime.ErrBorshIoError {
		t.Errorf("v2 BorshIoError = %+v, %v", e, err)
	}
	if err := json.Unmarshal([]byte(`"Custom"`), &e); err == nil {
		t.Error("bare Custom accepted")
	}
	wrapped := errors.Join(errors.New("context"), runtime.ErrInvalidSeeds)
	if !errors.Is(wrapped, runtime.ErrInvalidSeeds) {
		t.Error("errors.Is does not match an InstructionError")
	}
	var txe runtime.TransactionError
	for _, bad := range []string{`"InstructionError"`, `{"InstructionError":[0]}`, `{"Nope":1}`, `{"InsufficientFundsForRent":{}}`, `[]`} {
		if err := json.Unmarshal([]byte(bad), &txe); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
