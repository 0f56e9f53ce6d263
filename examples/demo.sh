#!/usr/bin/env bash
# A short B Nomic game, start to finish, through the `bnomic` command line.
#
#   examples/demo.sh            # plays in a fresh temporary database
#   examples/demo.sh game.db    # plays in game.db (which must not hold a game yet)
#
# At the end it writes the game's web site to ./bnomic-demo-site (or to
# $BNOMIC_DEMO_SITE) and says where to open it.
#
# Twelve mails from early September 2008 (examples/mail/*.eml: players join,
# pay, chat, and two proposals are submitted) are read into the log; then the
# Clock is turned On and game time moves to the Voting Period, where bnomic
# publishes the Ballot and the players' votes (examples/votes/*.eml) arrive;
# at the end of nweek 1 the votes are tallied and the results published.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
origin="$PWD"                   # the site is written here (step 11)
mail_dir="$here/mail"

if [[ $# -ge 1 ]]; then
    db="$1"
    [[ "$db" == /* || "$db" == *://* ]] || db="$PWD/$db"
else
    tmp="$(mktemp -d "${TMPDIR:-/tmp}/bnomic-demo.XXXXXX")"
    trap 'rm -rf "$tmp"' EXIT
    db="$tmp/game.sqlite"
fi

if [[ -t 1 ]]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() {
    printf '\n%s==> %s%s\n' "$bold" "$*" "$plain"
}
run() {     # show the command (with the database as $DB), then run it
    local shown="$*"
    printf '$ %s\n' "${shown//"$db"/\$DB}"
    "$@"
}

echo "DB=$db"

step "1. A new game, starting Monday 2008-09-01 at 00:00 UTC (the Clock starts Off)"
run bnomic init --db "$db" --start 2008-09-01T00:00:00Z --seed demo

step "2. The players' mail arrives (quoted lines, signatures and chatter are not acted on)"
shopt -s nullglob
cd "$here"                      # so the receipts name the files as mail/NN-....eml
mails=(mail/*.eml)
if [[ ${#mails[@]} -eq 0 ]]; then
    echo "no mail found in $mail_dir" >&2
    exit 1
fi
echo "\$ bnomic ingest --db \$DB mail/*.eml      # ${#mails[@]} files, in name order = arrival order"
bnomic ingest --db "$db" "${mails[@]}"

step "3. The Clock was Off all along: two midnights raised the ndelay, not the nday"
run bnomic show --db "$db" clock

step "4. The operator turns the Clock On (the ndelay goes back to 0)"
run bnomic admin --db "$db" clock on

step "5. Nday 9 (Ballotday) begins the Voting Period: the Clock turns Off, the proposals are Open,
   and bnomic publishes the Ballot for the Chairman (Chuck), then turns the Clock On (Rules 4E14, 4E15)"
run bnomic tick --db "$db" --until 2008-09-12T12:00:00Z
run bnomic show --db "$db" ballot

step "6. The votes arrive (the latest vote on a proposal is the Final Vote)"
votes=(votes/*.eml)
echo "\$ bnomic ingest --db \$DB votes/*.eml"
bnomic ingest --db "$db" "${votes[@]}"

step "7. Past nday 12: the tally (Rules 4E15, 4E19); nweek 2 begins, each Active Player gains m25"
run bnomic tick --db "$db" --until 2008-09-16T12:00:00Z
run bnomic show --db "$db" results
run bnomic show --db "$db" proposals

step "8. Where the game stands"
run bnomic show --db "$db" clock
echo
run bnomic show --db "$db" players

step "9. The last 15 events (every change, with the rule that made it)"
echo "\$ bnomic show --db \$DB events | tail -n 15"
bnomic show --db "$db" events | tail -n 15

step "10. The digest of the whole gamestate, and a rebuild from the log that reproduces it"
run bnomic show --db "$db" digest
run bnomic rebuild --db "$db"

step "11. The game on the web: a static site of the ruleset, proposals, players, displays, Clock
   and the annotated archive (every message beside what bnomic read in it)"
site="${BNOMIC_DEMO_SITE:-$origin/bnomic-demo-site}"
[[ "$site" == /* ]] || site="$origin/$site"
echo "\$ bnomic site --db \$DB $site"
bnomic site --db "$db" "$site"
echo "Open file://$site/index.html in a browser (or serve $site with any web server)."

if [[ $# -ge 1 ]]; then
    echo
    echo "The game is in $db; look around with e.g.: bnomic show --db $db log"
fi
