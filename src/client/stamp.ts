/**
 * Build stamp of the client bundle: `<package version>+<digest of src/client and src/shared>`,
 * injected by `tools/build.mjs`; `dev` when the sources run unbuilt (tests).
 *
 * @module dsh-message-recall/client/stamp
 */

/** The stamp logged on load and shown by the debug hook. */
export const BUILD_STAMP: string = typeof __BUILD_STAMP__ === 'string' ? __BUILD_STAMP__ : 'dev'
