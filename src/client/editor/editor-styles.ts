/**
 * The editor dialog's style sheet, scoped by its data attributes (`data-message-recall-editor`,
 * `data-editor-*`); rendered with the dialog by the Edit button's entry. Colours and radii come
 * from the DSH web theme's CSS variables, with plain fallbacks.
 *
 * @module dsh-message-recall/client/editor/editor-styles
 */

/** The editor's style sheet (scoped by its data attributes). */
export const EDITOR_CSS = `
[data-message-recall-editor-backdrop] { position: fixed; inset: 0; z-index: 1000; display: flex; align-items: center; justify-content: center; background: rgba(0,0,0,.35); }
[data-message-recall-editor] { background: var(--dsw-specific-menu, var(--dsw-alias-bg-base, #fff)); color: var(--dsw-alias-label-primary, #222); width: min(760px, 94vw); max-height: 86vh; display: flex; flex-direction: column; gap: 8px; padding: 16px 18px; box-sizing: border-box; border-radius: 12px; border: 1px solid var(--dsw-alias-border-inverted, rgba(0,0,0,.12)); box-shadow: var(--dsw-shadow-lv3, 0 8px 32px rgba(0,0,0,.3)); outline: none; font-size: 13px; line-height: 20px; }
[data-message-recall-editor] h2 { margin: 0; font-size: 16px; line-height: 24px; font-weight: 600; }
[data-message-recall-editor] [data-editor-keys] { margin: 0; font-size: 12px; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] ol { list-style: none; margin: 0; padding: 0; overflow: auto; flex: 1; }
[data-message-recall-editor] li[data-editor-turn] { font-size: 12px; line-height: 20px; font-weight: 600; color: var(--dsw-alias-label-secondary, #666); margin: 0; padding: 8px 0 2px; height: 30px; box-sizing: border-box; contain: strict; }
[data-message-recall-editor] li[data-editor-unit] { display: flex; gap: 8px; align-items: flex-start; padding: 4px 6px; border-radius: 8px; height: 76px; box-sizing: border-box; overflow: hidden; contain: strict; }
[data-message-recall-editor] li[data-editor-unit][data-editor-refused] { height: 100px; flex-wrap: wrap; }
[data-message-recall-editor] li[data-editor-spacer] { margin: 0; padding: 0; }
[data-message-recall-editor] li[data-editor-unit]:hover, [data-message-recall-editor] li[data-editor-unit]:focus-within { background: var(--dsw-alias-interactive-bg-hover, rgba(0,0,0,.04)); }
[data-message-recall-editor] [data-editor-rows] { flex: 1; min-width: 0; }
[data-message-recall-editor] li[data-editor-unit] > [data-editor-rows]:first-child { margin-left: 32px; }
[data-message-recall-editor] [data-editor-busy], [data-message-recall-editor] [data-editor-checking] { margin: 0; font-size: 12px; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] [data-editor-rows] { max-height: 60px; overflow: hidden; }
[data-message-recall-editor] [data-editor-rows] p { margin: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
[data-message-recall-editor] [data-editor-role-label] { font-weight: 600; font-size: 12px; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] [data-editor-state-label] { font-size: 12px; color: var(--dsw-alias-label-secondary, #666); white-space: nowrap; }
[data-message-recall-editor] li[data-editor-state="removed"] [data-editor-rows], [data-message-recall-editor] li[data-editor-state="excluded"] [data-editor-rows] { text-decoration: line-through; opacity: .6; }
[data-message-recall-editor] li[data-editor-preview="going"] [data-editor-rows] { text-decoration: line-through; color: #c62828; }
[data-message-recall-editor] li[data-editor-preview="coming"] [data-editor-rows] { text-decoration: none; color: #2e7d32; opacity: 1; }
[data-message-recall-editor] li[data-editor-preview="excluding"] [data-editor-rows] { text-decoration: none; opacity: .45; }
[data-message-recall-editor] [data-editor-context] { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
[data-message-recall-editor] [data-editor-tools], [data-message-recall-editor] [data-editor-presets] { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; font-size: 12px; }
[data-message-recall-editor] [data-editor-presets] input { width: 5em; font: inherit; padding: 1px 4px; border-radius: 6px; border: 1px solid var(--dsw-alias-border-l2, rgba(0,0,0,.12)); background: transparent; color: inherit; }
[data-message-recall-editor] [data-editor-sort][aria-pressed="true"], [data-message-recall-editor] [data-editor-exclude-all][aria-pressed="true"] { border-color: var(--dsw-alias-state-business-primary, #4d6bfe); color: var(--dsw-alias-state-business-primary, #4d6bfe); }
[data-message-recall-editor] [data-editor-meta] { flex: none; width: 13em; text-align: right; }
[data-message-recall-editor] [data-editor-cost], [data-message-recall-editor] [data-editor-unit-turn] { display: block; font-size: 12px; color: var(--dsw-alias-label-secondary, #666); font-variant-numeric: tabular-nums; }
[data-message-recall-editor] [data-editor-exclude] { flex: none; border-color: transparent; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] [data-editor-exclude][aria-pressed="true"] { border-color: #8a6d00; color: #8a6d00; }
[data-message-recall-editor] [data-editor-refusal] { color: #c62828; margin: 2px 0 0; font-size: 12px; }
[data-message-recall-editor] li[data-editor-unit] > [data-editor-refusal] { flex-basis: 100%; margin-left: 32px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
[data-message-recall-editor] [data-editor-actions] { display: flex; justify-content: flex-end; gap: 8px; }
[data-message-recall-editor] [data-editor-counter] { margin: 0; font-weight: 600; }
[data-message-recall-editor] button { font: inherit; font-size: 12px; line-height: 18px; padding: 2px 10px; border-radius: 6px; cursor: pointer; white-space: nowrap; border: 1px solid var(--dsw-alias-border-l2, rgba(0,0,0,.12)); background: transparent; color: var(--dsw-alias-label-primary, #222); }
[data-message-recall-editor] button:hover:not(:disabled) { background: var(--dsw-alias-interactive-bg-hover, rgba(0,0,0,.06)); }
[data-message-recall-editor] button:focus-visible { outline: 2px solid var(--dsw-alias-state-business-primary, #4d6bfe); outline-offset: 1px; }
[data-message-recall-editor] button:disabled { opacity: .45; cursor: default; }
[data-message-recall-editor] [data-editor-select] { width: 24px; height: 24px; padding: 0; flex: none; display: inline-flex; align-items: center; justify-content: center; font-size: 14px; }
[data-message-recall-editor] [data-editor-select][aria-pressed="true"] { border-color: #c62828; color: #c62828; }
[data-message-recall-editor] [data-editor-from] { flex: none; border-color: transparent; color: var(--dsw-alias-label-secondary, #666); }
[data-message-recall-editor] [data-editor-from][aria-pressed="true"] { border-color: #c62828; color: #c62828; }
[data-message-recall-editor] [data-editor-restore] { flex: none; }
[data-message-recall-editor] [data-editor-restore][aria-pressed="true"] { border-color: #2e7d32; color: #2e7d32; }
[data-message-recall-editor] [data-editor-actions] button { font-size: 13px; line-height: 20px; padding: 5px 16px; border-radius: 8px; }
[data-message-recall-editor] [data-editor-actions] [data-editor-apply] { background: var(--dsw-alias-state-business-primary, #4d6bfe); border-color: var(--dsw-alias-state-business-primary, #4d6bfe); color: #fff; }
[data-message-recall-editor] [data-editor-actions] [data-editor-apply]:hover:not(:disabled) { background: var(--dsw-alias-state-business-primary, #4d6bfe); filter: brightness(1.08); }
`
