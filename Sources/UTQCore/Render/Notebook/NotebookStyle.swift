/// The look of an HTML notebook, inline in the page: a readable column of prose, commands
/// set off by a rule in the accent colour, tables with tabular figures and numbers to the
/// right, errors in red. System fonts only, so the page needs nothing from the network.
enum NotebookStyle {
    static let css = """
    :root {
      --ink: #1d2125; --muted: #66707a; --faint: #aab2ba; --rule: #e2e6ea; --paper: #ffffff;
      --ground: #f4f5f6; --code: #f5f7f9; --accent: #2a64a8; --cmd: #eef3f9;
      --error: #b3261e; --error-ground: #fdf1f0; --error-rule: #f3c3be;
      --warn: #8a5300; --warn-ground: #fff7e6;
      --mono: ui-monospace, "SF Mono", SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
    }
    * { box-sizing: border-box; }
    html { background: var(--ground); }
    body { margin: 0; color: var(--ink); font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "DejaVu Sans", Arial, sans-serif; }
    main { max-width: 900px; margin: 0 auto; padding: 28px 44px 56px; background: var(--paper); min-height: 100vh; box-shadow: 0 0 0 1px var(--rule); }
    header.nb { color: var(--muted); font-size: 13px; padding-bottom: 10px; border-bottom: 1px solid var(--rule); margin-bottom: 8px; }
    h1 { font-size: 30px; line-height: 1.25; margin: 22px 0 14px; letter-spacing: -0.01em; }
    h2 { font-size: 22px; line-height: 1.3; margin: 40px 0 8px; padding-top: 6px; }
    h3 { font-size: 18px; margin: 30px 0 6px; }
    h4 { font-size: 16px; margin: 24px 0 4px; }
    p { margin: 8px 0 12px; }
    ul, ol { margin: 6px 0 12px; padding-left: 26px; }
    li { margin: 3px 0; }
    code, pre { font-family: var(--mono); font-size: 13.5px; }
    p code, li code, h2 code, h3 code { background: var(--code); border: 1px solid var(--rule); padding: 0 4px; border-radius: 4px; font-size: 0.86em; }
    pre { margin: 0; white-space: pre; overflow-x: auto; }
    pre.example { margin: 8px 0 12px; padding: 8px 14px; background: var(--code); border-radius: 6px; }
    .cell { margin: 14px 0 24px; }
    pre.cmd { padding: 8px 14px; background: var(--cmd); border-left: 3px solid var(--accent); border-radius: 0 6px 6px 0; line-height: 1.5; }
    pre.cmd .prompt { color: var(--accent); font-weight: 600; user-select: none; }
    .out { padding: 6px 0 0 17px; }
    pre.text { margin: 6px 0; padding: 10px 14px; background: var(--code); border-radius: 6px; line-height: 1.3; }
    p.info { margin: 3px 0; color: var(--muted); font: 13px/1.5 var(--mono); }
    p.warning { margin: 6px 0; padding: 6px 12px; color: var(--warn); background: var(--warn-ground); border-radius: 6px; font-size: 14px; }
    pre.error { margin: 6px 0; padding: 10px 14px; color: var(--error); background: var(--error-ground); border: 1px solid var(--error-rule); border-left: 3px solid var(--error); border-radius: 0 6px 6px 0; line-height: 1.4; }
    .failed pre.cmd { border-left-color: var(--error); }
    .table-wrap { overflow-x: auto; margin: 4px 0 0; }
    table.result { border-collapse: collapse; font-size: 14px; font-variant-numeric: tabular-nums; line-height: 1.4; }
    table.result th { text-align: left; font-weight: 600; padding: 6px 16px 6px 0; border-bottom: 2px solid #c9d0d7; white-space: nowrap; }
    table.result td { padding: 4px 16px 4px 0; border-bottom: 1px solid #edf0f2; white-space: nowrap; }
    table.result th:last-child, table.result td:last-child { padding-right: 4px; }
    table.result .num { text-align: right; }
    table.result td.null { color: var(--faint); }
    table.result tbody tr:hover td { background: #f7f9fb; }
    table.result tr.gap td { color: var(--muted); font-size: 13px; text-align: left; background: var(--code); }
    p.foot, figcaption { margin: 4px 0 6px; color: var(--muted); font-size: 13px; }
    .n { font-family: var(--mono); color: var(--accent); font-weight: 600; }
    figure.chart { margin: 6px 0 4px; }
    figure.chart svg { display: block; max-width: 100%; height: auto; border: 1px solid var(--rule); border-radius: 6px; }
    footer { margin-top: 48px; padding-top: 12px; border-top: 1px solid var(--rule); color: var(--muted); font-size: 13px; }
    footer .errors { color: var(--error); }
    @media (max-width: 640px) { main { padding: 18px 16px 40px; } .out { padding-left: 0; } }
    @media print { html { background: none; } main { box-shadow: none; max-width: none; } .cell { break-inside: avoid; } }

    """
}
