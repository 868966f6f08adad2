// Package barrier starts the shards of one run together without a
// coordinator (readbench run --barrier DIR): a folder every shard can see
// (a ReadWriteMany volume) is the only thing they share.
//
// Each shard, once its sessions are open, writes a ready file there (a
// file per shard, named for the run and its k, written atomically: a
// temporary file, then a rename) holding its host and the wall-clock time
// it became ready. It then polls the folder until the n shards of the run
// are all ready, and every shard computes the same instant from the same
// files: the latest ready time plus a margin. No shard tells another when
// to start, so a shard that polls late still starts on time, as long as
// the margin exceeds the poll interval plus the clocks' skew. A wait is
// bounded: past its timeout it fails naming the shards that never came.
//
// The rule for which files belong to this wait (stale files of an earlier
// run in the same folder must not release a new one) is Config's.
//
// It is a leaf: it imports no other readbench package.
package barrier
