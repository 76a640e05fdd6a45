/**
 * The style sheet of the notices above the composer: their stack, the image notice, the unsaved
 * state with Save again, and the undo notice. Colours and radii come from the DSH web theme's CSS
 * variables, with plain fallbacks.
 *
 * @module dsh-message-recall/client/notices/notice-styles
 */

/** The notices' CSS text. */
export const NOTICE_STYLE_TEXT = `
[data-message-recall-notices]{position:absolute;bottom:calc(100% + 8px);left:12px;right:56px;z-index:21;display:flex;flex-direction:column;gap:6px;pointer-events:none}
[data-message-recall-notices]>*{pointer-events:auto}
[data-message-recall-notices]>[data-message-recall-undo]{position:static}
[data-message-recall-notice],[data-message-recall-unsaved]{display:flex;gap:8px;align-items:center;
padding:6px 10px;border-radius:8px;font-size:12px;line-height:18px;background:var(--dsw-specific-tip,#fff8e1);color:var(--dsw-alias-label-secondary,#444);
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12))}
[data-message-recall-notice]>span{display:flex;flex-direction:column;gap:2px;flex:1 1 auto;min-width:0}
[data-message-recall-notice] button{font:inherit;margin-left:auto;border:none;background:transparent;cursor:pointer;color:inherit;text-decoration:underline}
[data-message-recall-unsaved]{background:var(--dsw-specific-tip,#fff8e1);color:var(--dsw-alias-label-primary,#222)}
[data-message-recall-unsaved-text]{flex:1 1 auto;min-width:0}
[data-message-recall-unsaved-error]{color:var(--dsw-alias-state-error-primary,#d93025)}
[data-message-recall-unsaved] button{font:inherit;font-size:12px;line-height:18px;padding:2px 10px;border-radius:6px;cursor:pointer;white-space:nowrap;
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));background:var(--dsw-alias-bg-base,#fff);color:var(--dsw-alias-label-primary,#222)}
[data-message-recall-unsaved] button:focus-visible,[data-message-recall-notice] button:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[data-message-recall-unsaved] button:disabled{opacity:.6;cursor:progress}
[data-message-recall-undo]{position:absolute;bottom:calc(100% + 8px);left:12px;right:56px;z-index:21;display:flex;gap:8px;align-items:center;
padding:6px 10px;border-radius:8px;font-size:13px;line-height:20px;background:var(--dsw-specific-menu,#fff);color:var(--dsw-alias-label-primary,#222);
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));box-shadow:var(--dsw-shadow-lv2,0 2px 6px rgba(0,0,0,.12))}
[data-message-recall-undo][data-stacked]{bottom:calc(100% + 48px)}
[data-message-recall-undo-text]{flex:1 1 auto;min-width:0}
[data-message-recall-undo-error]{color:var(--dsw-alias-state-error-primary,#d93025);font-size:12px}
[data-message-recall-undo] button{font:inherit;font-size:12px;line-height:18px;padding:2px 10px;border-radius:6px;cursor:pointer;
border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));background:transparent;color:var(--dsw-alias-label-primary,#222)}
[data-message-recall-undo] button:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[data-message-recall-undo] button:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[data-message-recall-undo] button:disabled{opacity:.6;cursor:progress}
[data-message-recall-undo-action=dismiss]{border:none!important;padding:2px 6px!important}
`
