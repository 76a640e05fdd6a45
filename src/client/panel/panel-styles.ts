/**
 * The style sheet of the session header's entries (the Removed, Summary and Edit buttons), of the
 * removed-messages panel and of the summary dialog. Colours and radii come from the DSH web theme's CSS variables, with
 * plain fallbacks.
 *
 * @module dsh-message-recall/client/panel/panel-styles
 */

/** The header buttons' and the panel's CSS text. */
export const PANEL_STYLE_TEXT = `
[data-message-recall-entry-error]{color:var(--dsw-alias-state-error-primary,#d93025);font-size:12px}
[data-message-recall-panel] button{font:inherit;font-size:12px;line-height:18px;padding:2px 10px;border-radius:6px;cursor:pointer;
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));background:transparent;color:var(--dsw-alias-label-primary,#222)}
[data-message-recall-panel] button:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[data-message-recall-panel] button:focus-visible,[data-message-recall-removed]:focus-visible,[data-message-recall-edit]:focus-visible,[data-message-recall-summary]:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[data-message-recall-panel] button:disabled{opacity:.6;cursor:progress}
[data-message-recall-removed-seat]{position:relative;display:inline-flex}
[data-message-recall-removed],[data-message-recall-edit],[data-message-recall-summary]{border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));height:32px;border-radius:18px;padding:6px 12px;gap:6px;
display:inline-flex;align-items:center;background:transparent;color:var(--dsw-alias-label-primary,#222);font:inherit;font-size:13px;line-height:20px;cursor:pointer;white-space:nowrap}
[data-message-recall-removed]:hover,[data-message-recall-edit]:hover,[data-message-recall-summary]:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[data-message-recall-removed] [data-count]{min-width:18px;padding:0 5px;border-radius:9px;font-size:12px;line-height:18px;text-align:center;
background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.08))}
[data-message-recall-panel]{position:absolute;top:calc(100% + 6px);right:0;z-index:100;width:380px;max-height:60vh;overflow:auto;box-sizing:border-box;
padding:10px 12px;border-radius:12px;font-size:13px;line-height:20px;background:var(--dsw-specific-menu,#fff);color:var(--dsw-alias-label-secondary,#444);
border:1px solid var(--dsw-alias-border-inverted,rgba(0,0,0,.12));box-shadow:var(--dsw-shadow-lv3,0 4px 16px rgba(0,0,0,.16));outline:none}
[data-message-recall-panel-head]{display:flex;align-items:center;justify-content:space-between;margin-bottom:6px;color:var(--dsw-alias-label-primary,#222)}
[data-message-recall-panel] ol{list-style:none;margin:0;padding:0}
[data-message-recall-entry]{padding:8px 0;border-top:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.08))}
[data-message-recall-entry][data-restored]{opacity:.7}
[data-message-recall-entry-meta]{display:flex;flex-wrap:wrap;gap:4px 10px;font-size:12px;color:var(--dsw-alias-label-tertiary,#777)}
[data-message-recall-entry-what]{color:var(--dsw-alias-label-primary,#222);font-weight:500}
[data-message-recall-erase-problem]{margin:4px 0 6px;font-size:12px;overflow-wrap:anywhere;color:var(--dsw-alias-label-secondary,#444)}
[data-message-recall-entry-excerpt]{margin:2px 0 6px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:var(--dsw-alias-label-secondary,#444)}
[data-message-recall-entry-actions]{display:flex;gap:6px}
[data-message-recall-summary-dialog] textarea{display:block;width:min(560px,80vw);margin:6px 0;font:inherit;font-size:13px;line-height:20px;padding:6px 8px;
border-radius:6px;border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));background:transparent;color:inherit}
[data-message-recall-summary-dialog] p{margin:0;font-size:12px;color:var(--dsw-alias-label-secondary,#555)}
[data-message-recall-summary-error]{display:block;color:var(--dsw-alias-state-error-primary,#d93025);font-size:12px}
`
