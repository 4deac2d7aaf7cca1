#!/usr/bin/env node
// `npx cardflow …` from a clone: runs the TypeScript CLI (client/cli/main.ts) through tsx, no build step.
'use strict';
const { require: tsxRequire } = require('tsx/cjs/api');

tsxRequire('../client/cli/main.ts', __filename).main(process.argv.slice(2));
