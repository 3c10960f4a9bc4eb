package rpc

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/health"
)

func TestHealthErrors(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t)
	tests := []struct {
		status string
		behind uint64
		want   string // the error as JSON; "" for ok
	}{
		{health.OK, 0, ""},
		{health.Behind, 42, `{"code":-32005,"message":"Node is behind by 42 slots","data":{"numSlotsBehind":42}}`},
		{health.Unknown, 0, `{"code":-32005,"message":"Node is unhealthy","data":{"numSlotsBehind":null}}`},
	}
	for _, tt := range tests {
		s.node.Health = func() (string, uint64) { return tt.status, tt.behind }
		got, err := s.GetHealth(context.Background())
		if tt.want == "" {
			if err != nil || got != "ok" {
				t.Errorf("%s: getHealth = %q, %v", tt.status, got, err)
			}
			continue
		}
		e, ok := rpcapi.AsError(err)
		if !ok {
			t.Fatalf("%s: getHealth error %v is not an rpcapi.Error", tt.status, err)
		}
		if b, _ := json.Marshal(e); string(b) != tt.want {
			t.Errorf("%s: getHealth error %s, want %s", tt.status, b, tt.want)
		}
	}
}

func TestSnapshotSlots(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t)
	ctx := context.Background()
	noSnapshot := func(err error) bool {
		e, ok := rpcapi.AsError(err)
		return ok && e.Code == -32008 && e.Message == "No snapshot"
	}

	// No cluster, then a cluster without snapshots yet.
	for _, c := range []*Cluster{nil, {Snapshots: func() (uint64, *uint64, bool) { return 0, nil, false }}} {
		s.node.Cluster = c
		if _, err := s.GetHighestSnapshotSlot(ctx); !noSnapshot(err) {
			t.Errorf("getHighestSnapshotSlot error = %v", err)
		}
		if _, err := s.GetSnapshotSlot(ctx); !noSnapshot(err) {
			t.Errorf("getSnapshotSlot error = %v", err)
		}
	}
	incremental := uint64(125)
	for _, tt := range []struct {
		inc  *uint64
		want string
	}{{nil, `{"full":100,"incremental":null}`}, {&incremental, `{"full":100,"incremental":125}`}} {
		s.node.Cluster = &Cluster{Snapshots: func() (uint64, *uint64, bool) { return 100, tt.inc, true }}
		got, err := s.GetHighestSnapshotSlot(ctx)
		if b, _ := json.Marshal(got); err != nil || string(b) != tt.want {
			t.Errorf("getHighestSnapshotSlot = %s, %v; want %s", b, err, tt.want)
		}
		if full, err := s.GetSnapshotSlot(ctx); err != nil || full != 100 {
			t.Errorf("getSnapshotSlot = %d, %v", full, err)
		}
	}
}

func TestClusterNodesShape(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t)
	version, fs, sv := "2.2.1", uint32(7), uint16(9)
	s.node.Cluster = &Cluster{RPCAddr: "127.0.0.1:8899", PubSubAddr: "127.0.0.1:8900", Gossip: "127.0.0.1:1024",
		TVU: "127.0.0.1:1025", TPUQuic: "127.0.0.1:1026", TPUForwardsQuic: "127.0.0.1:1027", TPUVote: "127.0.0.1:1028",
		ServeRepair: "127.0.0.1:1029", Peers: func() []health.Peer {
			return []health.Peer{
				{Identity: s.node.Identity, RPC: "127.0.0.1:1"}, // this node again, through another URL: listed once
				{Identity: "Borqy3dEjw9az7Uj9nW69A9ZDansFGHWEggUx7tkv44f", RPC: "10.0.0.2:8899", Version: &version, FeatureSet: &fs, ShredVersion: &sv},
			}
		}}
	nodes, err := s.GetClusterNodes(context.Background())
	if err != nil || len(nodes) != 2 {
		t.Fatalf("getClusterNodes = %+v, %v", nodes, err)
	}
	b, _ := json.Marshal(nodes[1])
	want := `{"pubkey":"Borqy3dEjw9az7Uj9nW69A9ZDansFGHWEggUx7tkv44f","gossip":null,"tvu":null,"tpu":null,"tpuQuic":null,` +
		`"tpuForwards":null,"tpuForwardsQuic":null,"tpuVote":null,"serveRepair":null,"rpc":"10.0.0.2:8899","pubsub":null,` +
		`"version":"2.2.1","featureSet":7,"shredVersion":9,"clientId":null}`
	if string(b) != want {
		t.Errorf("peer = %s\nwant %s", b, want)
	}
	// This node as the test validator lists itself: its service addresses, no UDP TPU, and its client.
	self := nodes[0]
	if self.ShredVersion == nil {
		t.Fatal("no shred version")
	}
	b, _ = json.Marshal(self)
	want = fmt.Sprintf(`{"pubkey":%q,"gossip":"127.0.0.1:1024","tvu":"127.0.0.1:1025","tpu":null,"tpuQuic":"127.0.0.1:1026",`+
		`"tpuForwards":null,"tpuForwardsQuic":"127.0.0.1:1027","tpuVote":"127.0.0.1:1028","serveRepair":"127.0.0.1:1029",`+
		`"rpc":"127.0.0.1:8899","pubsub":"127.0.0.1:8900","version":%q,"featureSet":%d,"shredVersion":%d,"clientId":"Agave"}`,
		s.node.Identity, Version, FeatureSet, *self.ShredVersion)
	if string(b) != want {
		t.Errorf("self = %s\nwant %s", b, want)
	}
}
