/**
 * The workflow bundle's entry: the workflows of every top-level module of this folder, by type
 * (workflows/registry.ts). The bundler reads the folder (webpack's `require.context`), in the
 * sources and in dist/ alike, so adding a workflow module needs no line here. The entry is a
 * CommonJS module because the SDK looks a run's type up on the object it exports, and that object
 * is only known once the modules are loaded.
 */
import registry = require('./registry');

/** The part of webpack's `require` the bundler resolves at build time. */
interface BundlerRequire {
  context(directory: string, subdirectories: boolean, files: RegExp): { keys(): string[]; (key: string): object };
}

const modules = (require as unknown as BundlerRequire).context(
  '.',
  false,
  /^\.\/(?!index\.|registry\.)[a-z0-9-]+\.[jt]s$/,
);

export = registry.registerWorkflows(modules.keys().map((key) => modules(key)));
