#!/usr/bin/env bash
# Starts and stops a real Apache Fluss 0.9.1 cluster on loopback for tests:
# ZooKeeper (the copy shaded into fluss-server), one CoordinatorServer and
# three TabletServers, each a JVM on a free 127.0.0.1 port, data under a
# temporary directory.
#
#   scripts/fluss-cluster.sh start   # last line of output: HOST:PORT (bootstrap)
#   scripts/fluss-cluster.sh stop    # stops what start started, removes its data
#   scripts/fluss-cluster.sh stop-keep
#                                    # stops the servers (SIGTERM, SIGKILL after 5s),
#                                    # keeps their data, config and ports
#   scripts/fluss-cluster.sh restart # starts a cluster stopped by stop-keep again on
#                                    # the same ports with the same data; prints the
#                                    # bootstrap address as its last line
#   scripts/fluss-cluster.sh fetch   # only downloads the jars into the cache
#   scripts/fluss-cluster.sh run CMD [ARG...]
#                                    # starts a cluster (in a fresh temporary
#                                    # directory unless SQLGATE_FLUSS_DIR is set), runs
#                                    # CMD with SQLGATE_FLUSS_BOOTSTRAP set to it, stops
#                                    # it, exits with CMD's status; with
#                                    # SQLGATE_FLUSS_BOOTSTRAP already set, only runs CMD
#
# The server jars come from Maven Central once (mvn dependency:copy-dependencies
# on a generated pom) into $SQLGATE_FLUSS_CACHE (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/sqlgate/fluss-0.9.1). The cluster's state
# (pids, ports, logs, data) lives in $SQLGATE_FLUSS_DIR (default
# ${TMPDIR:-/tmp}/sqlgate-fluss-$UID); one cluster per directory.
#
# Environment: SQLGATE_FLUSS_TABLETS (default 3), SQLGATE_FLUSS_TIMEOUT
# (seconds to wait for the cluster to serve, default 120), SQLGATE_FLUSS_HEAP
# (per server JVM, default 384m).
set -euo pipefail

FLUSS_VERSION=0.9.1-incubating
LOG4J_VERSION=2.24.3
CACHE=${SQLGATE_FLUSS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sqlgate/fluss-0.9.1}
DIR=${SQLGATE_FLUSS_DIR:-${TMPDIR:-/tmp}/sqlgate-fluss-$(id -u)}
TABLETS=${SQLGATE_FLUSS_TABLETS:-3}
TIMEOUT=${SQLGATE_FLUSS_TIMEOUT:-120}
HEAP=${SQLGATE_FLUSS_HEAP:-384m}
HOST=127.0.0.1

die() { echo "fluss-cluster: $*" >&2; exit 1; }

# fail stops what started, keeps the logs beside the cluster directory
# (named on stderr) and exits.
fail() {
  local keep="$DIR.failed"
  rm -rf "$keep"
  [ -d "$DIR/log" ] && cp -r "$DIR/log" "$keep" 2>/dev/null || true
  stop >/dev/null 2>&1 || true
  echo "fluss-cluster: $* (server logs kept in $keep)" >&2
  exit 1
}

# fetch downloads fluss-server (a shaded jar carrying ZooKeeper, RocksDB, Netty
# and Arrow) plus a log4j binding so that the servers write logs we can read.
fetch() {
  [ -f "$CACHE/.complete" ] && return 0
  command -v mvn >/dev/null 2>&1 || die "mvn not found (scripts/install-test-deps.sh installs Maven)"
  mkdir -p "$CACHE"
  local pom
  pom=$(mktemp -d)
  cat >"$pom/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>sqlgate</groupId><artifactId>fluss-cluster</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.fluss</groupId><artifactId>fluss-server</artifactId><version>$FLUSS_VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>$LOG4J_VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>$LOG4J_VERSION</version></dependency>
  </dependencies>
</project>
POM
  echo "fluss-cluster: downloading fluss-server $FLUSS_VERSION from Maven Central into $CACHE" >&2
  if ! (cd "$pom" && mvn -q -B dependency:copy-dependencies -DincludeScope=runtime \
      -DoutputDirectory="$CACHE/lib" >"$pom/mvn.log" 2>&1); then
    cat "$pom/mvn.log" >&2
    rm -rf "$pom"
    die "mvn dependency:copy-dependencies failed"
  fi
  rm -rf "$pom"
  [ -f "$CACHE/lib/fluss-server-$FLUSS_VERSION.jar" ] || die "fluss-server jar missing after download"
  touch "$CACHE/.complete"
}

# free_ports prints N distinct free loopback ports (bound then released; the
# servers bind them a moment later, a race we accept for a test cluster).
free_ports() {
  python3 - "$1" <<'PY'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
for s in socks: s.close()
PY
}

port_open() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

java_cmd() {
  local name=$1; shift
  local cp="$CACHE/lib/*"
  nohup java -Xms64m -Xmx"$HEAP" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    --add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED \
    --add-opens=java.base/java.nio=ALL-UNNAMED \
    -Dlog4j.configurationFile="$DIR/conf/log4j2.properties" -Dlog.file="$DIR/log/$name.log" \
    -cp "$cp" "$@" >"$DIR/log/$name.out" 2>&1 </dev/null &
  echo "$! $name" >>"$DIR/pids"
}

start() {
  fetch
  if [ -f "$DIR/pids" ]; then
    die "a cluster is already running from $DIR (run stop first)"
  fi
  rm -rf "$DIR"
  mkdir -p "$DIR/conf" "$DIR/log" "$DIR/zk" "$DIR/remote"
  local ports zk coord
  read -r -a ports <<<"$(free_ports $((TABLETS + 2)))"
  zk=${ports[0]} coord=${ports[1]}

  cat >"$DIR/conf/log4j2.properties" <<'L4J'
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = file
appender.file.name = file
appender.file.type = File
appender.file.fileName = ${sys:log.file}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n
logger.zk.name = org.apache.fluss.shaded.zookeeper3
logger.zk.level = WARN
logger.netty.name = org.apache.fluss.shaded.netty4
logger.netty.level = WARN
L4J
  cat >"$DIR/conf/zookeeper.properties" <<ZK
dataDir=$DIR/zk
clientPort=$zk
clientPortAddress=$HOST
maxClientCnxns=0
tickTime=500
admin.enableServer=false
4lw.commands.whitelist=ruok
ZK
  java_cmd zookeeper org.apache.fluss.shaded.zookeeper3.org.apache.zookeeper.server.quorum.QuorumPeerMain "$DIR/conf/zookeeper.properties"
  wait_port "$zk" zookeeper

  write_yaml coordinator "$coord" ""
  java_cmd coordinator org.apache.fluss.server.coordinator.CoordinatorServer --configDir "$DIR/conf/coordinator"
  local i
  for ((i = 0; i < TABLETS; i++)); do
    write_yaml "tablet$i" "${ports[$((i + 2))]}" "tablet-server.id: $i"
    java_cmd "tablet$i" org.apache.fluss.server.tablet.TabletServer --configDir "$DIR/conf/tablet$i"
  done
  echo "$HOST:$coord" >"$DIR/bootstrap"
  wait_port "$coord" coordinator
  for ((i = 0; i < TABLETS; i++)); do
    wait_port "${ports[$((i + 2))]}" "tablet$i"
  done
  wait_registered
  cat "$DIR/bootstrap"
}

write_yaml() {
  local name=$1 port=$2 extra=$3
  mkdir -p "$DIR/conf/$name" "$DIR/data/$name"
  cp "$DIR/conf/log4j2.properties" "$DIR/conf/$name/log4j2.properties"
  cat >"$DIR/conf/$name/server.yaml" <<YAML
zookeeper.address: $HOST:$zk
bind.listeners: FLUSS://$HOST:$port
data.dir: $DIR/data/$name
remote.data.dir: $DIR/remote
# Log tiering a test can reach: 1 MiB segments (Fluss's default is 1 GiB)
# and the remote log task every second (default 1 min), so a table with a
# few MiB of log has closed segments copied to remote.data.dir, and dropped
# locally past table.log.tiered.local-segments (default 2), within seconds
# (TestClusterRemoteLog). A table's first MiB stays local as before.
log.segment.file-size: 1mb
remote.log.task-interval-duration: 1s
default.bucket.number: 1
default.replication.factor: 1
# A lost server is noticed in seconds, not the defaults' 60s session and
# 30s replica lag: tests kill tablet servers and wait for the cluster.
zookeeper.client.session-timeout: 4s
log.replica.max-lag-time: 3s
# Followers poll the leader every 50ms, not 500ms: an acks=all write with
# three replicas waits for them.
log.replica.fetch.wait-max-time: 50ms
$extra
YAML
}

# wait_port waits until a server accepts connections, failing early (with its
# log) if its JVM exits.
wait_port() {
  local port=$1 name=$2 deadline=$((SECONDS + TIMEOUT))
  until port_open "$port"; do
    if ! kill -0 "$(awk -v n="$name" '$2==n{print $1}' "$DIR/pids")" 2>/dev/null; then
      tail -n 40 "$DIR/log/$name.log" "$DIR/log/$name.out" >&2 2>/dev/null || true
      fail "$name exited before serving on port $port"
    fi
    [ $SECONDS -lt $deadline ] || fail "$name did not listen on $port within ${TIMEOUT}s"
    sleep 0.2
  done
}

# wait_registered asks the coordinator for the cluster's metadata (a
# GetMetadata request, API 1012, with an empty body) until it lists every
# tablet server, so that a CreateTable right after start finds them all.
wait_registered() {
  local deadline=$((SECONDS + TIMEOUT)) n
  while :; do
    n=$(python3 - "$HOST" "$coord" <<'PY' 2>/dev/null || echo 0
import socket, struct, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)
s.sendall(struct.pack(">ihhi", 8, 1012, 0, 1))
def read(n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError
        b += c
    return b
body = read(struct.unpack(">i", read(4))[0])
if body[0] != 0:
    print(0); sys.exit()
b, i, count = body[5:], 0, 0
def varint():
    global i
    v = shift = 0
    while True:
        x = b[i]; i += 1
        v |= (x & 0x7F) << shift; shift += 7
        if x < 0x80:
            return v
while i < len(b):
    key = varint(); field, wire = key >> 3, key & 7
    if wire == 0: varint()
    elif wire == 1: i += 8
    elif wire == 5: i += 4
    elif wire == 2:
        n = varint(); i += n
        count += field == 2  # MetadataResponse.tablet_servers
    else: break
print(count)
PY
)
    [ "${n:-0}" -ge "$TABLETS" ] && return 0
    [ $SECONDS -lt $deadline ] || fail "${n:-0} of $TABLETS tablet servers registered with the coordinator within ${TIMEOUT}s"
    sleep 0.3
  done
}

# kill_servers stops every server in $DIR/pids (tablet servers and the
# coordinator first, ZooKeeper last) and forgets their pids. A server that has
# not stopped after a few seconds (a tablet server's controlled shutdown waits
# for a coordinator that may be stopping too) is killed: what it had
# acknowledged is on disk already.
kill_servers() {
  local pid name
  tac "$DIR/pids" | while read -r pid name; do
    kill "$pid" 2>/dev/null || true
  done
  local deadline=$((SECONDS + 5))
  tac "$DIR/pids" | while read -r pid name; do
    while kill -0 "$pid" 2>/dev/null; do
      if [ $SECONDS -ge $deadline ]; then kill -9 "$pid" 2>/dev/null || true; break; fi
      sleep 0.1
    done
  done
  rm -f "$DIR/pids"
}

stop() {
  [ -f "$DIR/pids" ] && kill_servers
  rm -rf "$DIR"
}

# stop_keep stops the servers but keeps $DIR (config, data, ZooKeeper's
# state), so that restart brings the same cluster back: what tests of a
# whole-cluster outage need.
stop_keep() {
  [ -f "$DIR/pids" ] || die "no cluster is running from $DIR"
  kill_servers
}

# restart starts the servers of a cluster stopped by stop-keep from their
# kept config, on the same ports (clients keep their bootstrap address).
restart() {
  [ -f "$DIR/pids" ] && die "a cluster is already running from $DIR"
  [ -f "$DIR/bootstrap" ] || die "no stopped cluster in $DIR (start one first)"
  local zk coord name port
  zk=$(awk -F= '$1=="clientPort"{print $2}' "$DIR/conf/zookeeper.properties")
  coord=$(sed -n 's/^bind.listeners: FLUSS:\/\/.*:\([0-9]*\)$/\1/p' "$DIR/conf/coordinator/server.yaml")
  java_cmd zookeeper org.apache.fluss.shaded.zookeeper3.org.apache.zookeeper.server.quorum.QuorumPeerMain "$DIR/conf/zookeeper.properties"
  wait_port "$zk" zookeeper
  java_cmd coordinator org.apache.fluss.server.coordinator.CoordinatorServer --configDir "$DIR/conf/coordinator"
  TABLETS=0
  for conf in "$DIR"/conf/tablet*/; do
    name=$(basename "$conf")
    java_cmd "$name" org.apache.fluss.server.tablet.TabletServer --configDir "$DIR/conf/$name"
    TABLETS=$((TABLETS + 1))
  done
  wait_port "$coord" coordinator
  for conf in "$DIR"/conf/tablet*/; do
    name=$(basename "$conf")
    port=$(sed -n 's/^bind.listeners: FLUSS:\/\/.*:\([0-9]*\)$/\1/p' "$conf/server.yaml")
    wait_port "$port" "$name"
  done
  wait_registered
  cat "$DIR/bootstrap"
}

# run starts a cluster for one command and stops it however the command
# ends. SQLGATE_FLUSS_TABLETS is the started cluster's, not the command's:
# a test that starts a cluster of its own says how many tablet servers it
# needs.
run() {
  [ $# -gt 0 ] || die "run: no command given"
  if [ -n "${SQLGATE_FLUSS_BOOTSTRAP:-}" ]; then
    exec "$@"
  fi
  RUN_TMP=""
  if [ -z "${SQLGATE_FLUSS_DIR:-}" ]; then
    RUN_TMP=$(mktemp -d "${TMPDIR:-/tmp}/sqlgate-fluss-run-XXXXXX")
    DIR=$RUN_TMP/c
  fi
  trap 'stop >/dev/null 2>&1 || true; if [ -n "$RUN_TMP" ]; then rm -rf "$RUN_TMP"; fi' EXIT
  local bs
  bs=$(start | tail -n 1)
  local rc=0
  env -u SQLGATE_FLUSS_TABLETS SQLGATE_FLUSS_BOOTSTRAP="$bs" "$@" || rc=$?
  return $rc
}

case "${1:-}" in
  start) start ;;
  run) shift; run "$@" ;;
  stop) stop ;;
  stop-keep) stop_keep ;;
  restart) restart ;;
  fetch) fetch ;;
  *) echo "usage: $0 start|stop|stop-keep|restart|fetch|run CMD..." >&2; exit 2 ;;
esac
