"""The statistics page: the site's finished games by table size and by setting, with a plot of the
liberals' win rate by table size (games/stats.py). One query, its rows the key of the page's kept fragment: a game
that ends is what makes it anew."""

from django.shortcuts import render
from django.template.loader import render_to_string

from games import fragments
from games.presenters import setting_words
from games.stats import site_rows, site_stats, win_rate_plot


def site(request):
    rows = site_rows()

    def make() -> str:
        figures = site_stats(rows)
        settings = [row | dict(zip(("label", "words"), setting_words(row["setting"], row["value"]), strict=True))
                    for row in figures["by_setting"]]  # fmt: skip
        context = {"stats": figures, "settings": settings, "plot": win_rate_plot(figures["by_table_size"])}
        return render_to_string("games/_stats.html", context)

    body = fragments.render("stats", rows, make)
    return render(request, "games/stats.html", {"body": body})
