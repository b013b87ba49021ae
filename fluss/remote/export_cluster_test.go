//go:build fluss_cluster

package remote

// ClusterBootstrap gives the external tests of this directory
// (package remote_test) the address TestMain's cluster serves on.
func ClusterBootstrap() string { return bootstrap }
