//go:build fluss_cluster

package remote

// ClusterBootstrap gives the external tests of this directory
// (package remote_test) the address TestMain's cluster serves on.
func ClusterBootstrap() string { return bootstrap }

// StartCluster gives the external tests a cluster of their own (see
// startCluster).
func StartCluster(dir string, env ...string) (string, func(), error) {
	return startCluster(dir, env...)
}
