/* tests/support/grounds.h — the one path by which a test reaches each ground, dataset and tool under
 * benchmarks/ (README "Layout"): a move of one of them is one line here.  The JavaScript tests have
 * the same table in tests/mcp/support.mjs. */
#ifndef EOUS_TS_GROUNDS_H
#define EOUS_TS_GROUNDS_H

/* the Playground's build (scripts/build-site) */
#define TS_PLAYGROUND_DIST EOUS_SOURCE_DIR "/benchmarks/grounds/playground/dist"
/* the task sets: TS_TASKS "/playground", "/dokuwiki", "/mediawiki", "/verified" */
#define TS_TASKS EOUS_SOURCE_DIR "/benchmarks/grounds/tasks"
/* WebArena's 812 configs as published */
#define TS_WEBARENA_CONFIGS EOUS_SOURCE_DIR "/benchmarks/datasets/webarena/test.raw.json"
/* the stand-in model's server */
#define TS_STANDIN EOUS_SOURCE_DIR "/benchmarks/standin/standin.mjs"
/* the stored views the token counts are measured on */
#define TS_STORED_VIEWS EOUS_SOURCE_DIR "/benchmarks/results/views"

#endif
