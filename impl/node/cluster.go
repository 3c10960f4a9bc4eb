package node

import (
	"fmt"

	"ledgerd/impl/health"
	"ledgerd/impl/ledger"
	"ledgerd/impl/rpc"
	"ledgerd/impl/snapshot"
)

// prepareCluster runs before the ledger opens: it checks the health settings, so that a mistyped flag stops the
// node before it touches the ledger, and makes the ledger directory a copy of cfg.FromSnapshot (with Reset,
// replacing an existing one).
func prepareCluster(cfg *Config) error {
	if err := cfg.Health.Validate(); err != nil {
		return err
	}
	if cfg.FromSnapshot == "" {
		return nil
	}
	from, err := snapshot.Restore(cfg.FromSnapshot, cfg.LedgerDir, cfg.Reset)
	if err != nil {
		return fmt.Errorf("starting from snapshot %s: %w", cfg.FromSnapshot, err)
	}
	cfg.Reset = false
	cfg.Logger.Info("ledger restored from a snapshot", "snapshot", from, "ledger", cfg.LedgerDir)
	return nil
}

// clusterParts are what the node runs beside its ledger: the snapshotter, the health monitor polling the peers,
// and what the RPC handler reads of them.
type clusterParts struct {
	snapshots *snapshot.Snapshotter // nil with NoSnapshots
	monitor   *health.Monitor
	info      *rpc.Cluster // the addresses are filled in once the node listens
	ports     servicePorts
}

func startCluster(cfg *Config, l *ledger.Ledger) (*clusterParts, error) {
	c := &clusterParts{info: &rpc.Cluster{}}
	ports, err := holdServicePorts(cfg.BindAddress, cfg.GossipPort, c.info)
	if err != nil {
		return nil, err
	}
	c.ports = ports
	hc := cfg.Health
	hc.Slot = func() uint64 { _, confirmed, _ := l.Slots(); return confirmed }
	hc.Fault = l.StorageFault
	if cfg.follower != nil {
		hc.Fault = cfg.follower.Fault(l.StorageFault)
	}
	if hc.Logger == nil {
		hc.Logger = cfg.Logger
	}
	m, err := health.New(hc)
	if err != nil {
		ports.close()
		return nil, err
	}
	c.monitor, c.info.Peers = m, m.Peers
	if !cfg.NoSnapshots {
		sc := cfg.Snapshots
		sc.LedgerDir = cfg.LedgerDir
		if sc.Logger == nil {
			sc.Logger = cfg.Logger
		}
		s, err := snapshot.New(l, sc)
		if err != nil {
			m.Close()
			ports.close()
			return nil, err
		}
		c.snapshots, c.info.Snapshots = s, s.Highest
	}
	return c, nil
}

// close stops polling and taking snapshots; it must come before the ledger closes.
func (c *clusterParts) close() {
	if c == nil {
		return
	}
	c.monitor.Close()
	if c.snapshots != nil {
		c.snapshots.Close()
	}
	c.ports.close()
}
