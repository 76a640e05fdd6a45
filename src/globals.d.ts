/** Build stamp injected by tools/build.ts (`<version>+<digest of the bundle>`); absent when sources run unbuilt. */
declare const __BUILD_STAMP__: string
