package resilientredis_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// A node is a redis-server or redis-sentinel process of the tests' own, on
// loopback, keeping its files (and its log) in a directory of its own.
type node struct {
	port int
	addr string
	dir  string
	cmd  *exec.Cmd
}

// startNode runs bin with args (which name the port) and waits until it
// answers a PING.
func startNode(dir string, port int, bin string, args ...string) (*node, error) {
	n := &node{port: port, addr: "127.0.0.1:" + strconv.Itoa(port), dir: dir}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	n.cmd = exec.Command(bin, args...)
	n.cmd.Dir = dir
	if err := n.cmd.Start(); err != nil {
		return nil, err
	}
	c := redis.NewClient(&redis.Options{Addr: n.addr, MaxRetries: -1, DialerRetries: 1})
	defer c.Close()
	var err error
	for range 200 {
		if err = c.Ping(context.Background()).Err(); err == nil {
			return n, nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "redis.log"))
	n.kill()
	return nil, fmt.Errorf("%s %v did not start: %v; its log:\n%s", bin, args, err, log)
}

// kill kills the process with SIGKILL and waits for it.
func (n *node) kill() {
	if n.cmd != nil && n.cmd.Process != nil {
		_ = n.cmd.Process.Kill()
		_ = n.cmd.Wait()
	}
	n.cmd = nil
}

// serverArgs are the arguments of a redis-server node on port: loopback
// only, no persistence, its log in its directory, and more.
func serverArgs(port int, more ...string) []string {
	return append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--logfile", "redis.log"}, more...)
}

// freePorts returns n free loopback ports whose cluster bus ports (the
// port + 10000) are free too.
func freePorts(n int) ([]int, error) {
	var ports []int
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	for tries := 0; len(ports) < n; tries++ {
		if tries > 100*n {
			return nil, errors.New("no free ports for a topology")
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		held = append(held, l)
		port := l.Addr().(*net.TCPAddr).Port
		if port+10000 > 65535 {
			continue
		}
		bus, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+10000))
		if err != nil {
			continue
		}
		held = append(held, bus)
		ports = append(ports, port)
	}
	return ports, nil
}

// A deployment is a Redis Cluster or a Sentinel setup of the tests' own.
type deployment struct {
	kind    string   // cluster or sentinel
	addrs   []string // a cluster's nodes, or the sentinels
	master  string   // the master's name, with sentinels
	servers int      // with sentinels, the servers: the first nodes, then the sentinels
	dir     string
	nodes   []*node
}

// stop kills every process and removes the files.
func (d *deployment) stop() {
	for _, n := range d.nodes {
		n.kill()
	}
	_ = os.RemoveAll(d.dir)
}

// lookBins returns the paths of the programs, or an error naming the
// package that has them.
func lookBins(names ...string) ([]string, error) {
	var paths []string
	for _, name := range names {
		p, err := exec.LookPath(name)
		if err != nil {
			return nil, fmt.Errorf("%s is not installed (Debian/Ubuntu: apt-get install redis-server redis-sentinel)", name)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// startCluster starts a Redis Cluster of masters masters with replicas
// replicas each (redis-cli --cluster create), and waits until every node
// reports the cluster ok and every replica is in sync with its master.
func startCluster(masters, replicas int) (d *deployment, err error) {
	bins, err := lookBins("redis-server", "redis-cli")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "resilientredis-cluster-")
	if err != nil {
		return nil, err
	}
	d = &deployment{kind: cluster, dir: dir}
	defer func() {
		if err != nil {
			d.stop()
		}
	}()
	total := masters * (1 + replicas)
	ports, err := freePorts(total)
	if err != nil {
		return nil, err
	}
	for _, port := range ports {
		n, err := startNode(filepath.Join(dir, strconv.Itoa(port)), port, bins[0], serverArgs(port,
			"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000",
			"--enable-debug-command", "local")...)
		if err != nil {
			return nil, err
		}
		d.nodes = append(d.nodes, n)
		d.addrs = append(d.addrs, n.addr)
	}
	args := append([]string{"--cluster", "create"}, d.addrs...)
	args = append(args, "--cluster-replicas", strconv.Itoa(replicas), "--cluster-yes")
	if out, err := exec.Command(bins[1], args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("redis-cli %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return d, d.waitCluster(total, masters)
}

// waitCluster waits until every node says the cluster is ok and knows
// every node, and the cluster has masters masters, each replica linked to
// its master.
func (d *deployment) waitCluster(total, masters int) error {
	ctx := context.Background()
	var last string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		ok, nmasters := true, 0
		for _, n := range d.nodes {
			info, err := nodeInfo(ctx, n.addr, "CLUSTER", "INFO")
			repl, err2 := nodeInfo(ctx, n.addr, "INFO", "replication")
			switch {
			case err != nil || err2 != nil:
				ok, last = false, fmt.Sprint(err, err2)
			case info["cluster_state"] != "ok" || info["cluster_known_nodes"] != strconv.Itoa(total):
				ok, last = false, n.addr+": "+info["cluster_state"]+", knows "+info["cluster_known_nodes"]
			case repl["role"] == "master":
				nmasters++
			case repl["master_link_status"] != "up":
				ok, last = false, n.addr+": replica link "+repl["master_link_status"]
			}
		}
		if ok && nmasters == masters {
			return nil
		}
	}
	return fmt.Errorf("the cluster did not settle within a minute: %s", last)
}

// nodeInfo runs an INFO-like command on the one node at addr and returns
// its fields.
func nodeInfo(ctx context.Context, addr string, args ...any) (map[string]string, error) {
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialerRetries: 1})
	defer c.Close()
	s, err := c.Do(ctx, args...).Text()
	if err != nil {
		return nil, err
	}
	fields := map[string]string{}
	for _, l := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), ":"); ok {
			fields[k] = v
		}
	}
	return fields, nil
}

// masterName is the name the sentinels of startSentinels monitor.
const masterName = "mymaster"

// startSentinels starts a master, replicas replicas of it and three
// sentinels monitoring them (quorum 2, a master down after 1 s), and waits
// until the replicas are in sync and every sentinel knows them and the
// other sentinels. The servers are the first nodes, the master first.
func startSentinels(replicas int) (d *deployment, err error) {
	bins, err := lookBins("redis-server", "redis-sentinel")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "resilientredis-sentinel-")
	if err != nil {
		return nil, err
	}
	d = &deployment{kind: sentinel, dir: dir, master: masterName, servers: 1 + replicas}
	defer func() {
		if err != nil {
			d.stop()
		}
	}()
	ports, err := freePorts(1 + replicas + 3)
	if err != nil {
		return nil, err
	}
	for i, port := range ports[:1+replicas] {
		args := serverArgs(port, "--enable-debug-command", "local")
		if i > 0 {
			args = append(args, "--replicaof", "127.0.0.1", strconv.Itoa(ports[0]))
		}
		n, err := startNode(filepath.Join(dir, "server-"+strconv.Itoa(port)), port, bins[0], args...)
		if err != nil {
			return nil, err
		}
		d.nodes = append(d.nodes, n)
	}
	for _, port := range ports[1+replicas:] {
		sdir := filepath.Join(dir, "sentinel-"+strconv.Itoa(port))
		if err := os.MkdirAll(sdir, 0o755); err != nil {
			return nil, err
		}
		conf := fmt.Sprintf(`port %d
bind 127.0.0.1
logfile redis.log
sentinel monitor %s 127.0.0.1 %d 2
sentinel down-after-milliseconds %s 1000
sentinel failover-timeout %s 5000
sentinel parallel-syncs %s 1
`, port, masterName, ports[0], masterName, masterName, masterName)
		if err := os.WriteFile(filepath.Join(sdir, "sentinel.conf"), []byte(conf), 0o644); err != nil {
			return nil, err
		}
		s, err := startNode(sdir, port, bins[1], "sentinel.conf")
		if err != nil {
			return nil, err
		}
		d.nodes = append(d.nodes, s)
		d.addrs = append(d.addrs, s.addr)
	}
	return d, d.waitSentinels(d.nodes[0].addr)
}

// waitSentinels waits until every server but the master at addr is its
// replica, in sync, and every sentinel names that master and knows its
// replicas and the two other sentinels.
func (d *deployment) waitSentinels(master string) error {
	ctx := context.Background()
	var last string
	settled := func() bool {
		for _, n := range d.nodes[:d.servers] {
			if n.addr == master {
				continue
			}
			repl, err := nodeInfo(ctx, n.addr, "INFO", "replication")
			if err != nil || repl["role"] != "slave" || "127.0.0.1:"+repl["master_port"] != master || repl["master_link_status"] != "up" {
				last = fmt.Sprintf("%s: %s of %s, link %s (%v)", n.addr, repl["role"], repl["master_port"], repl["master_link_status"], err)
				return false
			}
		}
		for _, addr := range d.addrs {
			sc := redis.NewSentinelClient(&redis.Options{Addr: addr, MaxRetries: -1})
			m, err0 := sc.GetMasterAddrByName(ctx, d.master).Result()
			replicas, err1 := sc.Replicas(ctx, d.master).Result()
			sentinels, err2 := sc.Sentinels(ctx, d.master).Result()
			sc.Close()
			up := 0
			for _, r := range replicas {
				if !strings.Contains(r["flags"], "down") && !strings.Contains(r["flags"], "disconnected") {
					up++
				}
			}
			if err0 != nil || err1 != nil || err2 != nil || len(m) != 2 || m[0]+":"+m[1] != master || up != d.servers-1 || len(sentinels) != 2 {
				last = fmt.Sprintf("sentinel %s names %v, knows %d replicas up and %d sentinels (%v, %v, %v)", addr, m, up, len(sentinels), err0, err1, err2)
				return false
			}
		}
		return true
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if settled() {
			return nil
		}
	}
	return fmt.Errorf("the sentinels did not settle within a minute: %s", last)
}

// startTopology starts the topology that RESILIENT_REDIS_TOPOLOGY names
// when RESILIENT_REDIS_ADDR is not set, and points the environment (and so
// the helper processes) at it. It returns the function that stops it.
func startTopology() (stop func(), err error) {
	if os.Getenv(addrEnv) != "" || topology() == standalone {
		return func() {}, nil
	}
	var d *deployment
	switch topology() {
	case cluster:
		d, err = startCluster(3, 1)
	case sentinel:
		d, err = startSentinels(1)
	default:
		err = fmt.Errorf("%s=%q: want standalone, cluster or sentinel", topologyEnv, topology())
	}
	if err != nil {
		return nil, err
	}
	os.Setenv(addrEnv, strings.Join(d.addrs, ","))
	if d.master != "" {
		os.Setenv(masterEnv, d.master)
	}
	fmt.Fprintf(os.Stderr, "resilientredis tests: a %s of our own at %s\n", d.kind, os.Getenv(addrEnv))
	return d.stop, nil
}
