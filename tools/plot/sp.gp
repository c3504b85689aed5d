# SPDX-License-Identifier: GPL-2.0
# sp.gp - the one style of every sched_power PNG (tools/sim/plots.sh and
# sp-report --plot).  Load it first, then set output, size and the plot:
#
#   load "tools/plot/sp.gp"
#   set terminal pngcairo size sp_w,sp_h ...   (sp_term(w, h) below does it)
#
# Colours: OPPs run from cool (lowest) to warm (highest); idle states are
# greys, the deepest the lightest; series colours are the Okabe-Ito set,
# which stays distinct for colour-blind readers.

sp_font = "DejaVu Sans,11"
set encoding utf8
set border 3 lw 1 lc rgb "#404040"
set tics nomirror out scale 0.6 textcolor rgb "#202020"
set grid xtics ytics lw 1 lc rgb "#e6e6e6" dt 1
set key outside right top vertical Left reverse noautotitle spacing 1.2 samplen 2 box lc rgb "#c0c0c0"
set style fill solid 1.0 noborder
set title font "DejaVu Sans,12"

# Series colours (Okabe-Ito) as line styles 1..8.
set linetype 1 lc rgb "#0072B2" lw 2 pt 7 ps 1.6
set linetype 2 lc rgb "#D55E00" lw 2 pt 5 ps 1.6
set linetype 3 lc rgb "#009E73" lw 2 pt 9 ps 1.8
set linetype 4 lc rgb "#CC79A7" lw 2 pt 11 ps 1.8
set linetype 5 lc rgb "#E69F00" lw 2 pt 13 ps 1.8
set linetype 6 lc rgb "#56B4E9" lw 2 pt 15 ps 1.8
set linetype 7 lc rgb "#000000" lw 2 pt 7 ps 1.2
set linetype 8 lc rgb "#999999" lw 2 pt 5 ps 1.2
set linetype cycle 8

# OPP index k (0 = lowest) of n OPPs -> RGB, cool to warm.
sp_opp_rgb_tab(k) = k == 0 ? 0x2166ac : k == 1 ? 0x67a9cf : k == 2 ? 0xf4a582 : \
	k == 3 ? 0xd6604d : k == 4 ? 0xb2182b : k == 5 ? 0x800026 : 0x4d0013
sp_opp_rgb(k) = sp_opp_rgb_tab(k < 0 ? 0 : k > 6 ? 6 : k)
# idle state index s (0 = shallowest) -> grey, deeper = lighter.
sp_idle_rgb(s) = s <= 0 ? 0x9a9a9a : s == 1 ? 0xc4c4c4 : s == 2 ? 0xdedede : 0xeeeeee
# one timeline stretch: busy (opp >= 0) or idle in state s
sp_seg_rgb(busy, k) = busy != 0 ? sp_opp_rgb(k) : sp_idle_rgb(k)

sp_term(w, h) = sprintf("set terminal pngcairo noenhanced size %d,%d font \"%s\" background rgb \"white\"", w, h, sp_font)
