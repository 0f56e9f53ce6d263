"""The game on the web (issue 17): a static site of the ruleset, the proposals,
the players, the ministries' displays, the Clock and an annotated archive of
the list, made from the game's state.

`build.build(OUTDIR)` writes it (`bnomic site OUTDIR`; the daemon after each
change when `[site] path` is set); `tree` swaps a new tree in by a rename and
re-renders only pages whose data changed; `views` and `messages` gather what
pages show; `asof` keeps the state as of each message; `chart` draws the
players' charts; templates are in bnomic/templates/site/.

It reads the game through the store, the handlers' views and the mailer's
(`mailer/views.py`'s view kinds, `publish.display_text`, `receipts.read_as`);
the mailer calls it only from inside `cmd_site` and the daemon's hooks.
"""
