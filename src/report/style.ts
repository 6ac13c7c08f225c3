/** The report's stylesheet, inlined so the page is one self-contained file. */
export const REPORT_CSS = `
:root{--ok:#1a7f37;--fail:#cf222e;--warn:#9a6700;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa;--accent:#0969da}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;color:#1f2328;background:#fff}
header.run,main,footer{max-width:1100px;margin:0 auto;padding:16px 20px}
header.run{border-bottom:1px solid var(--line)}
h1{font-size:22px;margin:4px 0 8px;overflow-wrap:anywhere}
h2{font-size:16px;margin:18px 0 8px}
h3{font-size:15px;margin:0 0 6px;display:flex;flex-wrap:wrap;gap:6px;align-items:center}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--bg);padding:8px;border-radius:6px;margin:6px 0 0;max-height:420px;overflow:auto}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;border:1px solid var(--line);background:var(--bg);white-space:nowrap}
.badge.ok,.st-done{color:#fff;background:var(--ok);border-color:var(--ok)}
.badge.failed,.st-failed,.st-budget,.st-infeasible{color:#fff;background:var(--fail);border-color:var(--fail)}
.badge.broken{color:#fff;background:#6e7781;border-color:#6e7781}
.st-running,.st-ask_user,.st-needs_confirmation,.st-dry_run{color:#fff;background:var(--warn);border-color:var(--warn)}
.src-cache{color:var(--accent);border-color:var(--accent)}
.src-rule,.src-gate{color:var(--warn);border-color:var(--warn)}
.status{font-size:15px;margin:4px 0}
.notice{border-left:4px solid var(--warn);background:#fff8c5;padding:8px 12px;margin:10px 0;border-radius:0 6px 6px 0}
.notice.error{border-color:var(--fail);background:#ffebe9}
dl.stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:6px 16px;margin:12px 0}
dl.stats div{background:var(--bg);border-radius:6px;padding:6px 10px}
dl.stats dt{color:var(--muted);font-size:12px}
dl.stats dd{margin:0;font-weight:600}
ol.plan{margin:0;padding-left:22px}
ol.plan li.done{color:var(--ok)}
ol.plan li.current{font-weight:600}
nav.chips{display:flex;flex-wrap:wrap;gap:4px;margin:0 0 12px}
nav.chips a{text-decoration:none;font-size:12px;padding:1px 7px;border-radius:4px;border:1px solid var(--line);color:inherit}
nav.chips a.ok{border-color:var(--ok)}
nav.chips a.failed,nav.chips a.broken{background:#ffebe9;border-color:var(--fail)}
article.step{display:grid;grid-template-columns:400px minmax(0,1fr);gap:16px;padding:14px;margin:0 0 12px;border:1px solid var(--line);border-left:5px solid var(--ok);border-radius:8px}
article.step.failed{border-left-color:var(--fail);background:#fffafa}
article.step.broken{border-left-color:#6e7781;background:var(--bg)}
article.step.noshot{grid-template-columns:1fr}
figure.shot{margin:0;min-width:0}
.shots{display:grid;grid-template-columns:1fr 1fr;gap:8px;align-self:start}
.filter{display:block;margin:0 0 12px;color:var(--muted)}
body:has(#only-failed:checked) article.step.ok{display:none}
.mark.box{fill:rgba(9,105,218,.12);stroke:#0969da;stroke-width:2}
.calls{margin-top:8px}
details.call{border:1px solid var(--line);border-radius:6px;padding:4px 8px;margin:4px 0}
details.call h4{font-size:12px;margin:8px 0 2px;color:var(--muted)}
.msg .role{font-size:11px;font-weight:600;text-transform:uppercase;color:var(--muted)}
.msg pre{margin-top:2px}
.frame{position:relative;line-height:0;border:1px solid var(--line);border-radius:6px;overflow:hidden}
.frame img{width:100%;height:auto;display:block}
.frame svg{position:absolute;inset:0;width:100%;height:100%;overflow:visible}
.mark{fill:rgba(255,59,48,.25);stroke:#ff3b30;stroke-width:3}
.mark.dot{fill:#ff3b30;stroke:#fff;stroke-width:1.5}
.mark.focus{fill:none;stroke:#0969da;stroke-dasharray:5 3}
.mark.swipe{fill:none;stroke:#ff3b30;stroke-width:4;stroke-linecap:round}
.arrowhead{fill:#ff3b30}
figcaption{color:var(--muted);font-size:12px;margin-top:4px;line-height:1.3}
.action code{font-size:13.5px;background:var(--bg);padding:2px 6px;border-radius:4px;overflow-wrap:anywhere}
.thought{color:var(--muted);font-style:italic;margin:6px 0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:3px 12px;margin:8px 0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
.outcome-failed{color:var(--fail);font-weight:600}
.outcome-ok{color:var(--ok);font-weight:600}
.error{color:var(--fail)}
summary{cursor:pointer;color:var(--accent)}
#final figure.shot{max-width:240px}
footer{color:var(--muted);font-size:12px;border-top:1px solid var(--line)}
@media (max-width:800px){article.step{grid-template-columns:1fr}.shots{max-width:420px}}
`;
