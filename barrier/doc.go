// Package barrier starts the shards of one run together without a
// coordinator (`run --barrier DIR`): a folder every shard can see (a
// ReadWriteMany volume) is the only thing they share. How the shards meet
// there is docs/workload.md's ("shards").
//
// No shard tells another when to start: each writes a ready file and all
// compute the same instant from the same files, so a shard that polls late
// still starts on time. It stands apart from the driver, so that the wait
// is tested, and reasoned about, apart from the run it starts; what it
// found it writes straight into the result's form (results.Barrier).
package barrier
