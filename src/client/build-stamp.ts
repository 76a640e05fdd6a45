/**
 * Build stamp of the client bundle: `<package version>+<digest of the bundle>`. `tools/build.mjs`
 * builds the bundle with a placeholder, hashes the bundle and writes the stamp in place of the
 * placeholder, so the stamp changes exactly when the bundle does; `dev` when the sources run
 * unbuilt (tests).
 *
 * @module dsh-message-recall/client/stamp
 */

/** The stamp logged on load and shown by the debug hook. */
export const BUILD_STAMP: string = typeof __BUILD_STAMP__ === 'string' ? __BUILD_STAMP__ : 'dev'
