package resilientredis

import (
	"context"
	"log/slog"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/resilientgo/resilient/observe"
)

// checkPersistence logs "redis without persistence" when the server says
// it keeps neither an append-only file (appendonly) nor snapshots (save):
// such a Redis forgets every idempotency record when it restarts, and a
// call whose record is forgotten may run again. One round trip, bounded by
// the timeout; a server that refuses CONFIG, does not answer, or answers
// something else is not reported, since nothing is known then.
func checkPersistence(client redis.UniversalClient, c config) {
	ctx := context.Background()
	conf, err := roundTrip(ctx, c.timeout, func(ctx context.Context) (map[string]string, error) {
		pipe := client.Pipeline()
		aof := pipe.ConfigGet(ctx, "appendonly")
		save := pipe.ConfigGet(ctx, "save")
		if _, err := pipe.Exec(ctx); err != nil {
			return nil, err
		}
		conf := aof.Val()
		for k, v := range save.Val() {
			conf[k] = v
		}
		return conf, nil
	})
	if err != nil {
		return
	}
	aof, ok1 := conf["appendonly"]
	save, ok2 := conf["save"]
	if !ok1 || !ok2 || aof != "no" || strings.TrimSpace(save) != "" {
		return
	}
	c.logger.LogAttrs(ctx, slog.LevelWarn, "redis without persistence",
		slog.String(observe.KeyFeature, c.feature.String()), slog.String(observe.KeyRedisKey, c.prefix+"*"),
		slog.String(keyAppendOnly, aof), slog.String(keySave, save))
}
