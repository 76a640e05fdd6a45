/**
 * The style sheet of the chat rows: hidden rows, the button cluster (corner position, hover and
 * focus, armed and busy states, the width an arming button keeps), row errors, excluded rows and the
 * label of folded rows (shown while the row is pointed at or focused, kept for screen readers otherwise),
 * and the flag on a summary's row (`summary-flag-row.ts`).
 * Colours and radii come from the DSH web theme's CSS variables, with plain fallbacks.
 *
 * @module dsh-message-recall/client/rows/row-styles
 */
import { FLAG_ATTR } from './summary-flag-row'
import { ATTR, EXCLUDED_ATTR, FOLDED_ATTR } from './row-marks'

/** The rows' CSS text. */
export const ROW_STYLE_TEXT = `
[${ATTR.hidden}]{display:none!important}
[${ATTR.row}]{position:relative}
[${ATTR.actions}]{position:absolute;top:-14px;right:0;z-index:3;display:flex;align-items:center;gap:2px;padding:2px;border-radius:8px;
background:var(--dsw-alias-bg-base,#fff);border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.12));
box-shadow:var(--dsw-shadow-lv2,0 2px 6px rgba(0,0,0,.12));opacity:0;transition:opacity .12s ease}
[${ATTR.actions}][data-message-recall-placed]{top:var(--message-recall-top);right:var(--message-recall-right)}
[${ATTR.row}]:hover>[${ATTR.actions}],[${ATTR.row}]:focus-within>[${ATTR.actions}],[${ATTR.actions}][${ATTR.active}]{opacity:1}
[${ATTR.action}]{font:inherit;font-size:12px;line-height:18px;padding:1px 8px;border:none;border-radius:6px;background:transparent;
color:var(--dsw-alias-label-secondary,#444);cursor:pointer;white-space:nowrap;display:inline-flex;flex-direction:column;align-items:center;font-variant-numeric:tabular-nums}
[${ATTR.action}][${ATTR.sizer}]::after{content:attr(${ATTR.sizer});height:0;overflow:hidden;visibility:hidden;white-space:nowrap}
[${ATTR.action}]:hover{background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[${ATTR.action}]:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[${ATTR.action}][${ATTR.armed}=true]{background:var(--dsw-alias-state-error-primary,#d93025);color:#fff}
[${ATTR.action}][${ATTR.busy}=true]{opacity:.6;cursor:progress}
[${ATTR.error}]{font-size:12px;line-height:18px;padding:0 6px;max-width:320px;color:var(--dsw-alias-state-error-primary,#d93025)}
[${EXCLUDED_ATTR.row}]>[data-slot]>*{opacity:.45}
[${EXCLUDED_ATTR.badge}]{display:block;width:fit-content;margin:0 0 4px;padding:0 8px;border-radius:9px;font-size:12px;line-height:18px;
color:var(--dsw-alias-label-secondary,#555);background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[${FOLDED_ATTR.badge}]{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
[${FOLDED_ATTR.row}]:hover>[${FOLDED_ATTR.badge}],[${FOLDED_ATTR.row}]:focus-within>[${FOLDED_ATTR.badge}]{position:static;width:auto;height:auto;overflow:visible;clip:auto;
display:inline-block;margin:2px 0 0;padding:0 8px;border-radius:9px;font-size:12px;line-height:18px;white-space:normal;
color:var(--dsw-alias-label-secondary,#555);background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[${FLAG_ATTR.flag}]{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin:4px 0;padding:4px 8px;border-radius:8px;font-size:12px;line-height:18px;
color:var(--dsw-alias-label-secondary,#555);background:var(--dsw-alias-interactive-bg-hover,rgba(0,0,0,.06))}
[${FLAG_ATTR.action}]{font:inherit;font-size:12px;line-height:18px;padding:1px 8px;border:1px solid var(--dsw-alias-border-l2,rgba(0,0,0,.2));border-radius:6px;
background:var(--dsw-alias-bg-base,#fff);color:var(--dsw-alias-label-primary,#222);cursor:pointer}
[${FLAG_ATTR.action}]:focus-visible{outline:2px solid var(--dsw-alias-state-business-primary,#4d6bfe);outline-offset:1px}
[${FLAG_ATTR.action}][data-armed=true]{background:var(--dsw-alias-state-error-primary,#d93025);color:#fff}
[${FLAG_ATTR.action}][aria-busy=true]{opacity:.6;cursor:progress}
[${FLAG_ATTR.error}]{color:var(--dsw-alias-state-error-primary,#d93025)}
`
