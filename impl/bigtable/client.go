package bigtable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	bt "cloud.google.com/go/bigtable"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// DefaultInstance is the reference's default instance name.
const DefaultInstance = "solana-ledger"

// Config names the Bigtable instance.
type Config struct {
	// Project is the Google Cloud project. Empty: GOOGLE_CLOUD_PROJECT, then the project_id of the
	// GOOGLE_APPLICATION_CREDENTIALS file; "emulator" on an emulator, as the reference names it there.
	Project string
	// Instance is the Bigtable instance; empty is DefaultInstance.
	Instance string
	// EmulatorHost is host:port of an emulator (the gcloud one or bttest); empty reads BIGTABLE_EMULATOR_HOST,
	// as the Go client does. Without an emulator the client authenticates with Application Default Credentials
	// (GOOGLE_APPLICATION_CREDENTIALS, gcloud's login, or the metadata server).
	EmulatorHost string
	// AppProfile is the app profile requests name; empty is the instance's default.
	AppProfile string
	// Timeout bounds each read and each batch of writes; 0 is 10 s.
	Timeout time.Duration
	// CreateTables creates the four tables and their column family when missing (an emulator starts empty).
	CreateTables bool
}

// reconnect caps gRPC's wait before redialing a lost connection at 5 s (its default grows to 2 minutes), so
// uploads resume soon after an outage ends.
var reconnect = grpc.WithConnectParams(grpc.ConnectParams{Backoff: backoff.Config{BaseDelay: 200 * time.Millisecond,
	Multiplier: 1.6, Jitter: 0.2, MaxDelay: 5 * time.Second}, MinConnectTimeout: 5 * time.Second})

// Client is a connection to the instance.
type Client struct {
	// cfg is kept to create the tables again on an emulator that restarted empty.
	cfg     Config
	c       *bt.Client
	tables  map[string]*bt.Table
	timeout time.Duration
	conn    *grpc.ClientConn
	where   string
}

// Where names the instance, for logs and errors.
func (c *Client) Where() string { return c.where }

// Dial connects. Connecting is lazy on the gRPC side: an unreachable instance fails the first call, not Dial.
func Dial(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.Instance == "" {
		cfg.Instance = DefaultInstance
	}
	if cfg.EmulatorHost == "" {
		cfg.EmulatorHost = os.Getenv("BIGTABLE_EMULATOR_HOST")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	var opts []option.ClientOption
	var conn *grpc.ClientConn
	clientCfg := bt.ClientConfig{AppProfile: cfg.AppProfile}
	if cfg.EmulatorHost != "" {
		if cfg.Project == "" {
			cfg.Project = "emulator"
		}
		var err error
		conn, err = grpc.NewClient(cfg.EmulatorHost, grpc.WithTransportCredentials(insecure.NewCredentials()), reconnect)
		if err != nil {
			return nil, fmt.Errorf("bigtable: emulator %s: %w", cfg.EmulatorHost, err)
		}
		opts = append(opts, option.WithGRPCConn(conn), option.WithoutAuthentication())
		clientCfg.MetricsProvider = bt.NoopMetricsProvider{}
	} else {
		opts = append(opts, option.WithGRPCDialOption(reconnect))
	}
	if cfg.EmulatorHost == "" && cfg.Project == "" {
		cfg.Project = projectFromEnv()
		if cfg.Project == "" {
			return nil, errors.New("bigtable: no project: set --bigtable-project, GOOGLE_CLOUD_PROJECT, or " +
				"GOOGLE_APPLICATION_CREDENTIALS to a service account key naming its project_id")
		}
	}
	where := fmt.Sprintf("projects/%s/instances/%s", cfg.Project, cfg.Instance)
	if cfg.EmulatorHost != "" {
		where += " (emulator " + cfg.EmulatorHost + ")"
	}
	if cfg.CreateTables {
		if err := ensureTables(ctx, cfg, opts); err != nil {
			if conn != nil {
				conn.Close()
			}
			return nil, fmt.Errorf("bigtable: %s: creating tables: %w", where, err)
		}
	}
	c, err := bt.NewClientWithConfig(ctx, cfg.Project, cfg.Instance, clientCfg, opts...)
	if err != nil {
		if conn != nil {
			conn.Close()
		}
		return nil, fmt.Errorf("bigtable: %s: %w", where, err)
	}
	out := &Client{cfg: cfg, c: c, tables: map[string]*bt.Table{}, timeout: cfg.Timeout, conn: conn, where: where}
	for _, t := range Tables {
		out.tables[t] = c.Open(t)
	}
	return out, nil
}

// projectFromEnv finds the project as the reference finds it: from the credentials file.
func projectFromEnv() string {
	if p := os.Getenv("GOOGLE_CLOUD_PROJECT"); p != "" {
		return p
	}
	path := os.Getenv("GOOGLE_APPLICATION_CREDENTIALS")
	if path == "" {
		return ""
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var key struct {
		ProjectID string `json:"project_id"`
	}
	if json.Unmarshal(raw, &key) != nil {
		return ""
	}
	return key.ProjectID
}

// ensureTables creates the tables that are missing. On an emulator the admin client gets a connection of its
// own, since it closes the one it is given.
func ensureTables(ctx context.Context, cfg Config, opts []option.ClientOption) error {
	if cfg.EmulatorHost != "" {
		adminConn, err := grpc.NewClient(cfg.EmulatorHost, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return fmt.Errorf("emulator %s: %w", cfg.EmulatorHost, err)
		}
		opts = []option.ClientOption{option.WithGRPCConn(adminConn), option.WithoutAuthentication()}
	}
	return createTables(ctx, cfg, opts, cfg.Timeout)
}

func createTables(ctx context.Context, cfg Config, opts []option.ClientOption, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ac, err := bt.NewAdminClient(ctx, cfg.Project, cfg.Instance, opts...)
	if err != nil {
		return err
	}
	defer ac.Close()
	have, err := ac.Tables(ctx)
	if err != nil {
		return err
	}
	exists := map[string]bool{}
	for _, t := range have {
		exists[t] = true
	}
	for _, t := range Tables {
		if exists[t] {
			continue
		}
		if err := ac.CreateTable(ctx, t); err != nil && status.Code(err) != codes.AlreadyExists {
			return err
		}
		if err := ac.CreateColumnFamily(ctx, t, Family); err != nil && status.Code(err) != codes.AlreadyExists {
			return err
		}
	}
	return nil
}

// Close ends the connection.
func (c *Client) Close() error {
	err := c.c.Close()
	if c.conn != nil {
		err = errors.Join(err, c.conn.Close())
	}
	return err
}

// cell is the newest value of each cell of a row, by name.
type row map[string][]byte

// rowCells keeps, per column of family x, the value of the newest version: the reader sorts cells by
// timestamp, newest first, as Bigtable returns them, and a LatestNFilter(1) leaves only that one.
func rowCells(r bt.Row) row {
	out := row{}
	for _, item := range r[Family] {
		col := item.Column[len(Family)+1:]
		if _, seen := out[col]; !seen {
			out[col] = item.Value
		}
	}
	return out
}

// readRow reads one row's newest cells; found is false when the row does not exist.
func (c *Client) readRow(ctx context.Context, table, key string) (row, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	r, err := c.tables[table].ReadRow(ctx, key, bt.RowFilter(bt.LatestNFilter(1)))
	if err != nil {
		return nil, false, c.fail("reading "+table+"/"+key, err)
	}
	if r == nil {
		return nil, false, nil
	}
	return rowCells(r), true, nil
}

// readRows reads the rows of rs in key order, at most limit (0: all), with their newest cells.
func (c *Client) readRows(ctx context.Context, table string, rs bt.RowSet, limit int64, keysOnly bool) ([]string, []row, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	filter := bt.LatestNFilter(1)
	if keysOnly {
		filter = bt.ChainFilters(bt.CellsPerRowLimitFilter(1), bt.LatestNFilter(1), bt.StripValueFilter())
	}
	opts := []bt.ReadOption{bt.RowFilter(filter)}
	if limit > 0 {
		opts = append(opts, bt.LimitRows(limit))
	}
	var keys []string
	var rows []row
	err := c.tables[table].ReadRows(ctx, rs, func(r bt.Row) bool {
		keys = append(keys, r.Key())
		if !keysOnly {
			rows = append(rows, rowCells(r))
		}
		return true
	}, opts...)
	if err != nil {
		return nil, nil, c.fail("reading "+table, err)
	}
	return keys, rows, nil
}

// putCells writes one cell per row (the value already framed), with the server's timestamp as the reference
// does: a rewrite adds a newer version, which readers take.
func (c *Client) putCells(ctx context.Context, table, cell string, keys []string, values [][]byte) error {
	if len(keys) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	muts := make([]*bt.Mutation, len(keys))
	for i := range keys {
		m := bt.NewMutation()
		m.Set(Family, cell, bt.ServerTime, values[i])
		muts[i] = m
	}
	errs, err := c.tables[table].ApplyBulk(ctx, keys, muts)
	if status.Code(err) == codes.NotFound && c.cfg.CreateTables {
		// An emulator that restarted comes back without tables: make them again, then write.
		if terr := ensureTables(ctx, c.cfg, nil); terr != nil {
			return c.fail("creating tables again", terr)
		}
		errs, err = c.tables[table].ApplyBulk(ctx, keys, muts)
	}
	if err != nil {
		return c.fail("writing "+table, err)
	}
	for i, e := range errs {
		if e != nil {
			return c.fail("writing "+table+"/"+keys[i], e)
		}
	}
	return nil
}

// Error is a failure of Bigtable met by a read or a write. It answers JSON-RPC as -32603 with the cause,
// never as "not found": the history may well exist where it could not be read.
type Error struct {
	Op  string
	Err error
}

func (e *Error) Error() string {
	return "Internal error: long-term storage (Bigtable) failure: " + e.Op + ": " + e.Err.Error()
}
func (e *Error) Unwrap() error  { return e.Err }
func (e *Error) ErrorCode() int { return -32603 }
func (e *Error) ErrorData() any { return nil }

func (c *Client) fail(op string, err error) error {
	return &Error{Op: op + " at " + c.where, Err: err}
}
