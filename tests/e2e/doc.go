// Package e2e holds end-to-end tests: a real sqlgate (in-process, or the
// built binary for crash tests) driven by real clients — psql and pgx — over
// loopback, through every stage of the pipeline.
package e2e
