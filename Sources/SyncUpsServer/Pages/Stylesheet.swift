/// The pages' stylesheet (without the theme colours, which `Assets` adds): one column that reads
/// on a 360 px phone and a desktop, system fonts, visible focus, the theme colour as an accent.
extension Assets {
  static let layout = """
    :root { --ink: #1b1d21; --muted: #585e68; --paper: #fff; --wash: #f4f5f7; --line: #d8dbe0;
      --link: #0b57d0; --focus: #0b57d0; --problem: #b3261e; color-scheme: light; }
    * { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; }
    body { margin: 0; font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans",
      sans-serif; color: var(--ink); background: var(--wash); }
    a { color: var(--link); }
    a:focus-visible, button:focus-visible, input:focus-visible, audio:focus-visible,
    main:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
    main:focus { outline: none; }
    code, kbd { font: .9em ui-monospace, "DejaVu Sans Mono", monospace; background: var(--wash);
      padding: 0 .25em; border-radius: 4px; border: 1px solid var(--line); }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden;
      clip: rect(0 0 0 0); white-space: nowrap; }
    .skip { position: absolute; left: -999px; top: .5rem; background: var(--paper); padding: .5rem; }
    .skip:focus { left: .5rem; z-index: 10; }
    .top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem;
      padding: .6rem 1rem; background: var(--paper); border-bottom: 4px solid var(--theme); }
    .brand { font-weight: 700; font-size: 1.15rem; color: var(--ink); text-decoration: none; }
    .search { display: flex; flex: 1 1 100%; order: 3; gap: .4rem; }
    .search input { flex: 1; min-width: 0; }
    .account { display: flex; align-items: center; gap: .4rem; margin-left: auto; order: 2;
      color: var(--muted); }
    input, button { font: inherit; }
    input { padding: .45rem .6rem; border: 1px solid #8a9099; border-radius: 6px;
      background: var(--paper); color: var(--ink); }
    button { padding: .45rem .9rem; border: 1px solid var(--ink); border-radius: 6px;
      background: var(--ink); color: var(--paper); cursor: pointer; }
    button.link { background: none; border: none; color: var(--link); padding: .2rem;
      text-decoration: underline; }
    main { max-width: 48rem; margin: 0 auto; padding: 1rem 1rem 4rem; }
    h1 { font-size: 1.6rem; line-height: 1.25; margin: .8rem 0 .4rem; overflow-wrap: anywhere; }
    h2 { font-size: 1.15rem; margin: 0 0 .2rem; overflow-wrap: anywhere; }
    .titled { padding-left: .6rem; border-left: 6px solid var(--theme); }
    .meta, .hint, .crumbs, .people { color: var(--muted); margin: .2rem 0; }
    .people { overflow-wrap: anywhere; }
    .problem { color: var(--problem); font-weight: 600; }
    .cards, .meetings, .results, .transcript { list-style: none; margin: 1rem 0; padding: 0; }
    .card { background: var(--paper); border: 1px solid var(--line); border-radius: 10px;
      padding: .8rem 1rem; margin: 0 0 .75rem; }
    .card p { margin: .15rem 0; }
    .card.syncup { border-left: 8px solid var(--theme); }
    .narrow { max-width: 24rem; margin: 2rem auto; }
    .stack { display: flex; flex-direction: column; gap: .4rem; }
    .stack button { margin-top: .6rem; align-self: flex-start; }
    .when { font-weight: 600; }
    .first { margin: .3rem 0 0; }
    .pager { display: flex; gap: 1rem; justify-content: space-between; }
    mark { background: #ffe58a; color: inherit; padding: 0 .1em; border-radius: 3px; }
    .player { position: sticky; top: 0; z-index: 5; background: var(--wash); padding: .5rem 0; }
    .player audio { width: 100%; }
    .downloads { display: flex; flex-wrap: wrap; gap: .2rem .8rem; margin: .4rem 0; color: var(--muted); }
    .segment { background: var(--paper); border: 1px solid var(--line); border-radius: 10px;
      padding: .6rem 1rem; margin: 0 0 .6rem; }
    .segment.here { border-color: var(--theme); box-shadow: inset 4px 0 0 var(--theme); }
    .who { margin: 0; }
    .who strong { margin-right: .4rem; }
    .at { font-variant-numeric: tabular-nums; color: var(--muted); }
    .corrected { margin-left: .4rem; font-size: .8rem; color: var(--muted); font-style: italic; }
    .said { margin: .2rem 0 0; font-size: 1.08rem; line-height: 1.7; }
    .said [data-start] { cursor: pointer; border-radius: 4px; padding: .05em 0; }
    .said [data-start]:hover { text-decoration: underline; }
    .said [aria-current="true"] { background: var(--theme); color: var(--on-theme);
      box-shadow: 0 0 0 .15em var(--theme); outline: 1px solid transparent; }
    @media (min-width: 48rem) { main { padding-top: 1.5rem; } h1 { font-size: 2rem; }
      .search { flex: 0 1 32rem; order: 1; } .account { order: 2; } }
    @media (prefers-reduced-motion: reduce) { * { scroll-behavior: auto !important; } }
    """
}
