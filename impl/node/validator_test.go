package node

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// The patterns kit's tests (rpc-api: getVersion, getGenesisHash, getClusterNodes) read <ledger>/validator.log
// with, each taking its first match.
var validatorLogPatterns = map[string]*regexp.Regexp{
	"featureSet":   regexp.MustCompile(`feat:([0-9a-f]+)`),
	"gossip":       regexp.MustCompile(`local gossip address: [\d.]+:([\d]+)`),
	"pubkey":       regexp.MustCompile(`identity pubkey: ([\w]{32,})`),
	"rpc":          regexp.MustCompile(`rpc bound to [\d.]+:([\d]+)`),
	"shredVersion": regexp.MustCompile(`shred_version: ([\d]+)`),
	"version":      regexp.MustCompile(`agave-validator ([\d.]+)`),
	"genesisHash":  regexp.MustCompile(`genesis hash: ([\d\w]{32,})`),
}

// A node started with ValidatorLog writes the test validator's start-up lines to <ledger>/validator.log (a link
// to this run's log), and what a harness reads there is what the node answers: getVersion's version and feature
// set, getGenesisHash, and its own entry of getClusterNodes, listed as the test validator lists itself (service
// addresses as 127.0.0.1:port, no UDP TPU, clientId Agave). A restart points the link at the new run's log.
func TestValidatorLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start := func() (*Node, map[string]string) {
		t.Helper()
		n, err := Start(Config{LedgerDir: dir, RPCPort: -1, WSPort: -1, Logger: quietLog, NoSnapshots: true,
			ValidatorLog: true})
		if err != nil {
			t.Fatal(err)
		}
		log, err := os.ReadFile(filepath.Join(dir, "validator.log"))
		if err != nil {
			n.Close(context.Background())
			t.Fatal(err)
		}
		found := map[string]string{}
		for name, re := range validatorLogPatterns {
			m := re.FindSubmatch(log)
			if m == nil {
				t.Errorf("validator.log has no match for %s (%s):\n%s", name, re, log)
				continue
			}
			found[name] = string(m[1])
		}
		return n, found
	}
	n, found := start()
	var version struct {
		Result struct {
			SolanaCore string `json:"solana-core"`
			FeatureSet uint32 `json:"feature-set"`
		}
	}
	json.Unmarshal([]byte(post(t, n.HTTPURL, `{"jsonrpc":"2.0","id":1,"method":"getVersion"}`)), &version)
	if fs, err := strconv.ParseUint(found["featureSet"], 16, 32); err != nil || uint32(fs) != version.Result.FeatureSet ||
		found["version"] != version.Result.SolanaCore {
		t.Errorf("log: version %s, feat %s; getVersion: %+v", found["version"], found["featureSet"], version.Result)
	}
	id, genesisHash := identityAndGenesis(t, n)
	if found["genesisHash"] != genesisHash || found["pubkey"] != id {
		t.Errorf("log: genesis hash %s, identity %s; node: %s, %s", found["genesisHash"], found["pubkey"], genesisHash, id)
	}
	var nodes struct{ Result []map[string]any }
	json.Unmarshal([]byte(post(t, n.HTTPURL, `{"jsonrpc":"2.0","id":1,"method":"getClusterNodes"}`)), &nodes)
	if len(nodes.Result) != 1 {
		t.Fatalf("getClusterNodes = %+v", nodes.Result)
	}
	self := nodes.Result[0]
	rpcURL, _ := url.Parse(n.HTTPURL)
	want := map[string]any{"pubkey": found["pubkey"], "gossip": "127.0.0.1:" + found["gossip"],
		"rpc": "127.0.0.1:" + found["rpc"], "version": found["version"], "clientId": "Agave", "tpu": nil,
		"tpuForwards": nil}
	if sv, _ := strconv.Atoi(found["shredVersion"]); self["shredVersion"] != float64(sv) {
		t.Errorf("shredVersion %v, log %s", self["shredVersion"], found["shredVersion"])
	}
	if fs, _ := strconv.ParseUint(found["featureSet"], 16, 32); self["featureSet"] != float64(fs) {
		t.Errorf("featureSet %v, log %s", self["featureSet"], found["featureSet"])
	}
	for k, v := range want {
		if self[k] != v {
			t.Errorf("getClusterNodes %s = %v, want %v", k, self[k], v)
		}
	}
	if "127.0.0.1:"+found["rpc"] != rpcURL.Host {
		t.Errorf("log's rpc port %s, node serves %s", found["rpc"], rpcURL.Host)
	}
	addrPattern := regexp.MustCompile(`^127\.0\.0\.1:\d+$`)
	for _, k := range []string{"pubsub", "serveRepair", "tpuForwardsQuic", "tpuQuic", "tpuVote", "tvu"} {
		if s, _ := self[k].(string); !addrPattern.MatchString(s) {
			t.Errorf("getClusterNodes %s = %v, want 127.0.0.1:port", k, self[k])
		}
	}
	if err := n.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	first, _ := os.Readlink(filepath.Join(dir, "validator.log"))
	n, found = start()
	defer n.Close(context.Background())
	second, _ := os.Readlink(filepath.Join(dir, "validator.log"))
	rpcURL, _ = url.Parse(n.HTTPURL)
	if first == second || "127.0.0.1:"+found["rpc"] != rpcURL.Host {
		t.Errorf("after a restart validator.log links %q (was %q) and names rpc port %s; the node serves %s", second,
			first, found["rpc"], rpcURL.Host)
	}
}
