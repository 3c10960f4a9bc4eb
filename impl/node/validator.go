package node

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/health"
	"ledgerd/impl/rpc"
)

// The test validator's surroundings that harnesses read: the addresses of its validator services, which
// getClusterNodes lists, and <ledger>/validator.log, whose start-up lines name its version, feature set, identity,
// genesis hash, shred version, gossip and RPC addresses (kit's tests take them from there and compare them with
// what the node answers).

// servicePorts are UDP sockets the node holds for the services the test validator advertises (gossip, shreds,
// QUIC transactions and their forwards, votes, repair). ledgerd runs none of those protocols, so nothing is read
// from them; holding them makes the listed addresses the node's own, which no other process can take.
type servicePorts []net.PacketConn

// holdServicePorts binds the service sockets on addr (gossip on gossipPort, 0 for any free port; the others on
// free ports) and records their addresses in info.
func holdServicePorts(addr string, gossipPort int, info *rpc.Cluster) (servicePorts, error) {
	var ports servicePorts
	for i, field := range []*string{&info.Gossip, &info.TVU, &info.TPUQuic, &info.TPUForwardsQuic, &info.TPUVote,
		&info.ServeRepair} {
		port := 0
		if i == 0 {
			port = gossipPort
		}
		c, err := net.ListenPacket("udp", net.JoinHostPort(addr, strconv.Itoa(port)))
		if err != nil {
			ports.close()
			return nil, fmt.Errorf("holding a UDP port for the validator services on %s: %w", addr, err)
		}
		ports = append(ports, c)
		*field = c.LocalAddr().String()
	}
	return ports, nil
}

func (p servicePorts) close() {
	for _, c := range p {
		c.Close()
	}
}

// openValidatorLog creates <dir>/validator-<unix ms>.log and points <dir>/validator.log at it, as the test
// validator does, so the link always names the current run's log; where links are not possible validator.log is
// the log itself, started afresh.
func openValidatorLog(dir string, now time.Time) (*os.File, error) {
	name := "validator-" + strconv.FormatInt(now.UnixMilli(), 10) + ".log"
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the validator log: %w", err)
	}
	link := filepath.Join(dir, "validator.log")
	if err := os.Remove(link); err != nil && !errors.Is(err, os.ErrNotExist) {
		f.Close()
		return nil, fmt.Errorf("replacing %s: %w", link, err)
	}
	if os.Symlink(name, link) == nil {
		return f, nil
	}
	f.Close()
	os.Remove(filepath.Join(dir, name))
	f, err = os.OpenFile(link, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the validator log: %w", err)
	}
	return f, nil
}

// announce logs what the test validator logs as it starts, in its words, so that harnesses that read them from
// validator.log find them: the version line (ledgerd answers as that version and client, with its feature set),
// the command line, identity, genesis hash, shred version and the addresses.
func announce(log *slog.Logger, identity, genesisHash string, info *rpc.Cluster) {
	log.Info(fmt.Sprintf("ledgerd, answering as agave-validator %s (src:%08x; feat:%08x, client:%s)", rpc.Version, 0,
		rpc.FeatureSet, rpc.ClientID))
	log.Info(fmt.Sprintf("Starting validator with: %q", os.Args))
	log.Info("identity pubkey: " + identity)
	log.Info("genesis hash: " + genesisHash)
	if h, err := core.ParseHash(genesisHash); err == nil {
		log.Info("shred_version: " + strconv.Itoa(int(health.ShredVersion(h))))
	}
	log.Info("local gossip address: " + info.Gossip)
	log.Info("rpc bound to " + info.RPCAddr)
	log.Info("rpc pubsub bound to " + info.PubSubAddr)
}
