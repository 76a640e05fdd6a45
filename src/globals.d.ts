/** Build stamp injected by tools/build.ts (`<version>+<first 10 hex digits of the sha256 of the client bundle>`); absent when sources run unbuilt. */
declare const __BUILD_STAMP__: string
