"""Drives headless Chromium through the page of `explain --format html` (see
browser-test.sh): the page's own controls must show each step, one at a time, as
`explain --format json` lists them."""

import json
import pathlib
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

out = pathlib.Path(sys.argv[1]).resolve()
report = json.loads((out / "explain.json").read_text())
steps = report["steps"]
n = len(steps)
assert n > 10, n

opts = Options()
opts.binary_location = "/usr/bin/chromium"
for flag in [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
]:
    opts.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
checked = 0


def check(cond, what):
    global checked
    if not cond:
        raise AssertionError(what)
    checked += 1


def shown():
    """The 1-based number of the one step section on show."""
    visible = [
        s for s in driver.find_elements(By.CSS_SELECTOR, "section.step") if s.is_displayed()
    ]
    check(len(visible) == 1, f"{len(visible)} steps shown at once")
    return int(visible[0].get_attribute("id").split("-")[1]), visible[0]


def expect(k):
    """Step k (1-based) is the one shown, with its number, text and picture."""
    pos = driver.find_element(By.ID, "position").text
    check(pos == f"Step {k} of {n}", f"position says {pos!r}, expected step {k}")
    number, section = shown()
    check(number == k, f"section {number} shown, expected {k}")
    heading = section.find_element(By.TAG_NAME, "h2").text
    want = steps[k - 1]["text"]
    check(heading.endswith(want), f"step {k}: heading {heading!r} is not {want!r}")
    svg = section.find_element(By.TAG_NAME, "svg")
    box = svg.rect
    check(box["width"] > 300 and box["height"] > 300, f"step {k}: picture is {box}")
    # The picture shows what the step removes, struck in red, or places, in green.
    struck = section.find_elements(By.CSS_SELECTOR, "path[stroke='#d32f2f']")
    placed = section.find_elements(By.CSS_SELECTOR, "text[fill='#1b7a1b']")
    check(
        len(struck) == len(steps[k - 1]["eliminations"])
        and len(placed) == len(steps[k - 1]["placements"]),
        f"step {k}: {len(struck)} struck, {len(placed)} placed in the picture",
    )
    return section


try:
    driver.get((out / "explain.html").as_uri())
    check(driver.title.startswith("classic puzzle"), driver.title)
    expect(1)
    check(not driver.find_element(By.ID, "prev").is_enabled(), "Previous enabled on step 1")
    for k in range(2, 6):
        driver.find_element(By.ID, "next").click()
        expect(k)
    driver.find_element(By.ID, "prev").click()
    expect(4)
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    expect(5)
    body.send_keys(Keys.ARROW_LEFT)
    expect(4)
    # The chain step, picked from the page's list.
    chain = next(
        i for i, s in enumerate(steps) if "chain" in s["technique"].lower()
    )
    driver.find_elements(By.CSS_SELECTOR, "#steps li")[chain].click()
    section = expect(chain + 1)
    # One arrow per link of the chains (a potential to each of its parents), as the JSON
    # form lists them.
    links = set()
    for c in steps[chain]["chain"]["chains"]:
        for p in c:
            for q in p["parents"]:
                a, b = c[q]["potential"], p["potential"]
                if a.replace("<>", "=") != b.replace("<>", "="):
                    links.add((a, b))
    arrows = section.find_elements(By.CSS_SELECTOR, "path[marker-end]")
    check(len(links) > 2, f"the chain has {len(links)} links")
    check(len(arrows) == len(links), f"{len(arrows)} arrows for {len(links)} links")
    detail = section.find_elements(By.CSS_SELECTOR, "pre.chain")
    check(detail and detail[0].is_displayed(), "no chain written out")
    written = detail[0].text.strip().splitlines()
    want = [l.strip() for l in steps[chain]["chain_text"]]
    check([l.strip() for l in written] == want, f"chain shown as {written}, expected {want}")
    driver.save_screenshot(str(out / "chain-step.png"))
    driver.find_element(By.ID, "last").click()
    expect(n)
    check(not driver.find_element(By.ID, "next").is_enabled(), "Next enabled on the last step")
    driver.find_element(By.ID, "first").click()
    expect(1)
finally:
    driver.quit()
print(f"browser_test.py: {checked} checks passed over {n} steps (chain step {chain + 1})")
