package impl_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The house: which layer each package of the module belongs to, and which layers it may import.
// A layer is a directory tree (the longest matching prefix wins); a package may also import the
// packages of its own layer. Anything not listed may not be imported, so an import that runs up
// the house (the runtime reaching for a program, a program for the ledger, the VM for anything
// but core) fails TestHouse, and a new package must be placed here first.
var layers = []struct {
	name, prefix string
	imports      []string
}{
	{"core", "ledgerd/impl/core", nil},
	{"store", "ledgerd/impl/store", []string{"core"}},
	{"sbpf", "ledgerd/impl/sbpf", []string{"core"}},
	{"runtime", "ledgerd/impl/runtime", []string{"core", "sbpf"}},
	{"programs", "ledgerd/impl/programs", []string{"core", "sbpf", "runtime", "rpcapi"}},
	{"ledger", "ledgerd/impl/ledger", []string{"core", "store", "runtime", "programs"}},
	{"encoding", "ledgerd/impl/encoding", []string{"core", "runtime", "programs", "rpcapi"}},
	{"parse", "ledgerd/impl/parse", []string{"core", "runtime", "programs", "ledger", "encoding", "rpcapi"}},
	{"pubsub", "ledgerd/impl/pubsub", []string{"core", "runtime", "programs", "ledger", "encoding", "parse", "rpcapi"}},
	{"health", "ledgerd/impl/health", []string{"core", "rpcapi", "rpcclient"}},
	{"jsonrpc", "ledgerd/impl/jsonrpc", nil},
	{"rpc", "ledgerd/impl/rpc", []string{"core", "runtime", "programs", "ledger", "encoding", "parse", "pubsub", "health", "jsonrpc", "rpcapi"}},
	{"snapshot", "ledgerd/impl/snapshot", []string{"core", "ledger"}},
	// A follower replays its leader's blocks into a replica ledger, reading the leader with the generated client.
	{"follow", "ledgerd/impl/follow", []string{"core", "ledger", "rpcapi", "rpcclient"}},
	{"bigtable", "ledgerd/impl/bigtable", []string{"core", "runtime", "programs", "ledger", "encoding", "parse", "rpcapi"}},
	// The collectors read the ledger, the hub and the store when scraped; the transports only call their
	// Observer, an interface jsonrpc defines, so neither jsonrpc nor anything below imports metrics.
	{"metrics", "ledgerd/impl/metrics", []string{"core", "store", "ledger", "pubsub", "rpcapi"}},
	{"node", "ledgerd/impl/node", []string{"*"}},
	{"cmd", "ledgerd/cmd", []string{"*"}},
	{"conformance", "ledgerd/conformance", []string{"*"}},
	{"gen", "ledgerd/gen", []string{"*"}},
	// The generated params carry impl/core's keys, signatures and hashes, decoded once by their validators.
	{"rpcapi", "ledgerd/generated/rpcapi", []string{"core"}},
	{"rpcclient", "ledgerd/generated/rpcclient", []string{"rpcapi"}},
	{"generated", "ledgerd/generated", []string{"*"}},
}

// narrower are imports a layer may make only of some packages of an allowed layer, each with
// the reason. The ledger reads the state of a few programs, as the reference's bank does
// (rewards from vote and stake accounts, token balances and indexes, lookup tables); it never
// registers programs or lays out their genesis accounts itself.
var narrower = map[[2]string]map[string]string{
	{"ledger", "programs"}: {
		"ledgerd/impl/programs":       "the default module list, for callers that hand the ledger none (tests, tools); impl/node hands its own",
		"ledgerd/impl/programs/alt":   "address lookup tables resolved for v0 messages",
		"ledgerd/impl/programs/stake": "stake accounts at genesis, epoch rewards",
		"ledgerd/impl/programs/token": "token balances of transactions, the token indexes, the wrapped-SOL mints at genesis",
		"ledgerd/impl/programs/vote":  "the node's own vote account and tower, epoch rewards",
	},
}

type listedPackage struct {
	ImportPath string
	Imports    []string
	Error      *struct{ Err string }
}

// layerOf returns the layer of a package of this module, by its longest matching prefix.
func layerOf(path string) (name string, allowed []string, ok bool) {
	best := -1
	for i, l := range layers {
		if (path == l.prefix || strings.HasPrefix(path, l.prefix+"/")) && (best < 0 || len(l.prefix) > len(layers[best].prefix)) {
			best = i
		}
	}
	if best < 0 {
		return "", nil, false
	}
	return layers[best].name, layers[best].imports, true
}

// houseViolations checks the non-test imports of pkgs against the house.
func houseViolations(pkgs []listedPackage) []string {
	var bad []string
	for _, p := range pkgs {
		if p.ImportPath == "ledgerd/impl" { // this test
			continue
		}
		from, allowed, ok := layerOf(p.ImportPath)
		if !ok {
			bad = append(bad, p.ImportPath+": in no layer of the house; place it in impl/house_test.go")
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, "ledgerd/") {
				continue
			}
			to, _, ok := layerOf(imp)
			switch {
			case !ok:
				bad = append(bad, p.ImportPath+" imports "+imp+", which is in no layer")
			case to == from || slices.Contains(allowed, "*"):
			case !slices.Contains(allowed, to):
				bad = append(bad, p.ImportPath+" ("+from+") imports "+imp+" ("+to+"), up or across the house")
			case narrower[[2]string{from, to}] != nil && narrower[[2]string{from, to}][imp] == "":
				bad = append(bad, p.ImportPath+" ("+from+") imports "+imp+", outside the "+to+" packages it may read")
			}
		}
	}
	return bad
}

func TestHouse(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,Error", "ledgerd/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPackage
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Error != nil {
			// An import cycle (the surest way up the house) shows here rather than as an import.
			t.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; is the test running inside the module?", len(pkgs))
	}
	for _, v := range houseViolations(pkgs) {
		t.Error(v)
	}
}

// The checker itself, on imports that must fail: the ones the house forbids most.
func TestHouseRefusesUpwardImports(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ from, to string }{
		{"ledgerd/impl/runtime", "ledgerd/impl/programs/computebudget"},
		{"ledgerd/impl/ledger", "ledgerd/impl/programs/system"},
		{"ledgerd/impl/ledger", "ledgerd/impl/encoding"},
		{"ledgerd/impl/programs/token", "ledgerd/impl/ledger"},
		{"ledgerd/impl/programs/token", "ledgerd/impl/store"},
		{"ledgerd/impl/programs/memo", "ledgerd/impl/rpc"},
		{"ledgerd/impl/sbpf", "ledgerd/impl/runtime"},
		{"ledgerd/impl/sbpf/syscalls", "ledgerd/impl/programs/system"},
		{"ledgerd/impl/core", "ledgerd/impl/runtime"},
		{"ledgerd/impl/core/sysvar", "ledgerd/generated/rpcapi"},
		{"ledgerd/impl/encoding", "ledgerd/impl/ledger"},
		{"ledgerd/impl/parse", "ledgerd/impl/rpc"},
		{"ledgerd/impl/store", "ledgerd/impl/runtime"},
		{"ledgerd/impl/jsonrpc", "ledgerd/impl/rpc"},
		{"ledgerd/impl/rpc", "ledgerd/impl/node"},
		{"ledgerd/impl/jsonrpc", "ledgerd/impl/metrics"},
		{"ledgerd/impl/ledger", "ledgerd/impl/metrics"},
		{"ledgerd/impl/metrics", "ledgerd/impl/rpc"},
		{"ledgerd/impl/metrics", "ledgerd/impl/node"},
	} {
		if bad := houseViolations([]listedPackage{{ImportPath: tt.from, Imports: []string{tt.to}}}); len(bad) == 0 {
			t.Errorf("%s importing %s passes", tt.from, tt.to)
		}
	}
	if bad := houseViolations([]listedPackage{{ImportPath: "ledgerd/impl/newthing"}}); len(bad) == 0 {
		t.Error("a package outside the house passes")
	}
	if bad := houseViolations([]listedPackage{{ImportPath: "ledgerd/impl/programs/ata", Imports: []string{"ledgerd/impl/programs/token", "ledgerd/impl/runtime"}}}); len(bad) != 0 {
		t.Errorf("allowed imports refused: %v", bad)
	}
}
