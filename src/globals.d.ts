/** Build stamp injected by tools/build.mjs (`<version>+<source digest>`); absent when sources run unbuilt. */
declare const __BUILD_STAMP__: string
