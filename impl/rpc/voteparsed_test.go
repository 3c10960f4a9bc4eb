package rpc

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// The genesis vote and stake accounts under jsonParsed, exactly as the reference's parse_vote
// and parse_stake show them: credits, stake amounts, the reserve and the delegation epochs as
// strings, every other number as a number, unit-free keys sorted; the vote account (V3) in the V4
// shape, with SIMD-0185's defaults for the fields V3 lacks.
func TestVoteAndStakeAccountsJSONParsed(t *testing.T) {
	t.Parallel()
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), Paused: true, StoreInMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	g := l.Genesis
	s := NewServer(Node{Identity: g.IdentityPubkey(), GenesisHash: g.HashString(), Ledger: l})
	ctx := context.Background()
	keys := strings.NewReplacer("$ID", g.Identity.PublicKey().String(), "$VOTE", g.Vote.PublicKey().String(),
		"$STAKE", g.Stake.PublicKey().String())
	voteData := keys.Replace(`{"program":"vote","parsed":{"info":{"authorizedVoters":[{"authorizedVoter":"$VOTE","epoch":0}],` +
		`"authorizedWithdrawer":"$VOTE","blockRevenueCollector":"$ID","blockRevenueCommissionBps":10000,"blsPubkeyCompressed":null,` +
		`"commission":0,"epochCredits":[],"inflationRewardsCollector":"$VOTE","inflationRewardsCommissionBps":0,` +
		`"lastTimestamp":{"slot":0,"timestamp":0},"nodePubkey":"$ID","pendingDelegatorRewards":"0","priorVoters":[],"rootSlot":null,` +
		`"votes":[]},"type":"vote"},"space":3762}`)
	voteAccount := `{"lamports":27074400,"owner":"Vote111111111111111111111111111111111111111","data":` + voteData +
		`,"executable":false,"rentEpoch":18446744073709551615,"space":3762}`
	stakeData := keys.Replace(`{"program":"stake","parsed":{"info":{"meta":{"authorized":{"staker":"$STAKE","withdrawer":"$STAKE"},` +
		`"lockup":{"custodian":"11111111111111111111111111111111","epoch":0,"unixTimestamp":0},"rentExemptReserve":"2282880"},` +
		`"stake":{"creditsObserved":0,"delegation":{"activationEpoch":"18446744073709551615",` +
		`"deactivationEpoch":"18446744073709551615","stake":"499999997717120","voter":"$VOTE"}}},` +
		`"type":"delegated"},"space":200}`)
	stakeAccount := `{"lamports":500000000000000,"owner":"Stake11111111111111111111111111111111111111","data":` + stakeData +
		`,"executable":false,"rentEpoch":18446744073709551615,"space":200}`
	parsed := &rpcapi.AccountInfoConfig{Encoding: stPtr(rpcapi.AccountEncodingJsonParsed)}

	for _, c := range []struct{ key, want string }{{g.Vote.PublicKey().String(), voteAccount}, {g.Stake.PublicKey().String(), stakeAccount}} {
		r, err := s.GetAccountInfo(ctx, &rpcapi.GetAccountInfoParams{Pubkey: core.MustParsePubkey(string(c.key)), Config: rpcapi.OptOf(parsed)})
		if err != nil {
			t.Fatal(err)
		}
		checkExactJSON(t, "getAccountInfo "+c.key, r.Value, c.want)
	}
	m, err := s.GetMultipleAccounts(ctx, &rpcapi.GetMultipleAccountsParams{
		Pubkeys: []core.Pubkey{g.Stake.PublicKey(), g.Vote.PublicKey()}, Config: rpcapi.OptOf(parsed)})
	if err != nil {
		t.Fatal(err)
	}
	checkExactJSON(t, rpcapi.MethodGetMultipleAccounts, m.Value, "["+stakeAccount+","+voteAccount+"]")
	for _, c := range []struct {
		program core.Pubkey
		key     string
		want    string
	}{{core.VoteProgramID, g.Vote.PublicKey().String(), voteAccount}, {core.StakeProgramID, g.Stake.PublicKey().String(), stakeAccount}} {
		p, err := s.GetProgramAccounts(ctx, &rpcapi.GetProgramAccountsParams{ProgramId: c.program,
			Config: rpcapi.Some(rpcapi.ProgramAccountsConfig{Encoding: stPtr(rpcapi.AccountEncodingJsonParsed)})})
		if err != nil {
			t.Fatal(err)
		}
		checkExactJSON(t, "getProgramAccounts "+c.program.String(), p, `[{"pubkey":"`+c.key+`","account":`+c.want+`}]`)
	}
	// simulateTransaction's accounts after a transaction that leaves them alone.
	tx := core.NewTransferTx(g.Faucet, core.Pubkey{7}, 1_000_000, l.Bank(ledger.Processed).LastBlockhash())
	sim, err := s.SimulateTransaction(ctx, &rpcapi.SimulateTransactionParams{Transaction: txB58(tx),
		Config: rpcapi.Some(rpcapi.SimulateTransactionConfig{Accounts: &rpcapi.SimulateTransactionConfigAccounts{Encoding: stPtr("jsonParsed"),
			Addresses: []rpcapi.Pubkey{g.Vote.PublicKey().String(), g.Stake.PublicKey().String()}}})})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(sim.Value)
	var v struct{ Accounts json.RawMessage }
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	stCheckJSON(t, "simulateTransaction accounts", v.Accounts, "["+voteAccount+","+stakeAccount+"]")
}

// A voting node's vote account shows its tower, root and credits as the reference does.
func TestVoteAccountJSONParsedWhileVoting(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r, err := s.GetAccountInfo(ctx, &rpcapi.GetAccountInfoParams{Pubkey: l.VoteAccount(),
			Config: rpcapi.Some(rpcapi.AccountInfoConfig{Encoding: stPtr(rpcapi.AccountEncodingJsonParsed), Commitment: stPtr(rpcapi.CommitmentProcessed)})})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r.Value.Data)
		var d struct {
			Parsed struct {
				Info struct {
					Votes         []map[string]json.RawMessage
					RootSlot      *uint64
					EpochCredits  []map[string]json.RawMessage
					LastTimestamp map[string]json.RawMessage
				}
			}
		}
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		info := d.Parsed.Info
		if info.RootSlot != nil && len(info.EpochCredits) > 0 && len(info.Votes) > 0 {
			v, c := info.Votes[0], info.EpochCredits[0]
			if len(v) != 3 || !isNumber(v["slot"]) || !isNumber(v["confirmationCount"]) || !isNumber(v["latency"]) || len(c) != 3 || !isNumber(c["epoch"]) ||
				!isString(c["credits"]) || !isString(c["previousCredits"]) || !isNumber(info.LastTimestamp["slot"]) ||
				!isNumber(info.LastTimestamp["timestamp"]) || string(info.LastTimestamp["slot"]) == "0" {
				t.Fatalf("vote account shapes: %s", b)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no rooted vote with credits in time: %s", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func isNumber(r json.RawMessage) bool { return len(r) > 0 && r[0] >= '0' && r[0] <= '9' }
func isString(r json.RawMessage) bool { return len(r) > 0 && r[0] == '"' }

// checkExactJSON compares the marshalled value with want byte for byte.
func checkExactJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Errorf("%s:\n got %s\nwant %s", what, b, want)
	}
}
