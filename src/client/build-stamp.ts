/**
 * Build stamp of the client bundle: `<package version>+<first 10 hex digits of the sha256 of the
 * bundle>`. The build (`tools/build.ts`) bundles the client with a placeholder for
 * `__BUILD_STAMP__`, hashes the bundle and writes the stamp in place of the placeholder, so the
 * stamp changes exactly when the bundle does; `dev` when the sources run unbuilt (tests).
 *
 * @module dsh-message-recall/client/build-stamp
 */

/** The stamp logged on load and shown by the debug hook. */
export const BUILD_STAMP: string = typeof __BUILD_STAMP__ === 'string' ? __BUILD_STAMP__ : 'dev'
