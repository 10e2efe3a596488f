#!/usr/bin/env python3
"""Writes the Excel workbooks XLSXTests reads, and what openpyxl reads in each sheet.

    python3 Tests/Fixtures/xlsx/make.py

types.xlsx and dates1904.xlsx are written by openpyxl (which writes every text as an inline
string); handmade.xlsx is written part by part, as Excel writes them, for what openpyxl does
not write: shared strings with rich text and phonetic runs, formulas with cached results,
custom date formats, ISO dates, namespace prefixes, cells without references. Each sheet's
cells as openpyxl reads them go to expected/WORKBOOK.N.json, so the tests need no Python.
The zips are written with fixed dates, so running this again changes nothing.
"""
import datetime as dt
import io
import json
import os
import zipfile

import openpyxl
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.utils.datetime import CALENDAR_MAC_1904

HERE = os.path.dirname(os.path.abspath(__file__))
FIXED = (2024, 1, 1, 0, 0, 0)


def normalise(path):
    """Rewrites a zip with fixed dates, and openpyxl's creation time fixed too."""
    with zipfile.ZipFile(path) as z:
        members = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            if name == "docProps/core.xml":
                data = fixed_core()
            info = zipfile.ZipInfo(name, date_time=FIXED)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def fixed_core():
    return (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            b'<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
            b'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>utq tests</dc:creator></cp:coreProperties>')


def types_workbook():
    wb = openpyxl.Workbook()
    hidden = wb.active
    hidden.title = "Lists"
    hidden.sheet_state = "hidden"
    hidden.append(["choice"])
    hidden.append(["yes"])

    ws = wb.create_sheet("Types")
    ws.append(["id", " name ", "ratio", "flag", "day", "when", "clock", "label", "mixed", "errors", "name", None, "spent"])
    ws.append([1, "Ana", 0.5, True, dt.date(2024, 1, 5), dt.datetime(2024, 1, 5, 8, 30), dt.time(8, 30), "a & b < c", 10,
               1, "first", "v1", dt.timedelta(hours=25, minutes=30)])
    ws.append([2, "Bo", 1.25, False, dt.date(1900, 1, 1), dt.datetime(2024, 3, 31, 2, 30), dt.time(23, 59, 59, 500000),
               "line one\nline two", 11.5, "#DIV/0!", "second", None, dt.timedelta(minutes=45)])
    ws.append([])  # a blank row in the middle: left out, as a CSV file's blank line is
    ws.append([3, "  Cy  ", 2, None, dt.date(2024, 2, 29), dt.datetime(1999, 12, 31, 23, 59, 59), dt.time(0, 0),
               CellRichText(["plain ", TextBlock(InlineFont(b=True), "bold")]), "eleven", "#N/A", None, "v3", None])
    ws.append([4, "Dee", -3.75, True, dt.date(1900, 3, 1), None, dt.time(12, 0), "Ünïcödé ✓", 12, 2, "fourth", None,
               dt.timedelta(days=2)])
    for row in ws.iter_rows(min_row=2):
        row[4].number_format = "yyyy-mm-dd"
        row[5].number_format = "yyyy-mm-dd hh:mm:ss"
        row[6].number_format = "hh:mm:ss"
        row[12].number_format = "[h]:mm:ss"
    # Styled cells with no value, below and right of the table: they are not rows or columns.
    ws.cell(row=30, column=20).number_format = "0.00"
    ws.cell(row=31, column=2).number_format = "0.00"
    ws.cell(row=31, column=2).value = None

    people = wb.create_sheet("People Staying")
    people.append(["place", "people", "when"])
    people.append(["bench", 4, dt.datetime(2017, 10, 17, 12, 0)])
    people.append(["steps", 11, dt.datetime(2017, 10, 17, 12, 15)])
    people.append(["lawn", 0, dt.datetime(2017, 10, 17, 12, 30)])
    for row in people.iter_rows(min_row=2):
        row[2].number_format = "d/m/yyyy h:mm"

    wb.create_sheet("Empty")
    path = os.path.join(HERE, "types.xlsx")
    wb.save(path)
    normalise(path)


def dates1904_workbook():
    wb = openpyxl.Workbook()
    wb.epoch = CALENDAR_MAC_1904
    ws = wb.active
    ws.title = "Mac"
    ws.append(["day", "stamp", "n"])
    ws.append([dt.date(1904, 1, 2), dt.datetime(2001, 2, 3, 4, 5, 6), 1])
    ws.append([dt.date(2020, 2, 29), dt.datetime(1904, 1, 2, 12, 0), 2])
    for row in ws.iter_rows(min_row=2):
        row[0].number_format = "yyyy-mm-dd"
        row[1].number_format = "yyyy-mm-dd hh:mm:ss"
    path = os.path.join(HERE, "dates1904.xlsx")
    wb.save(path)
    normalise(path)


MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

HANDMADE = {
    "[Content_Types].xml": """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
<Override PartName="/xl/worksheets/data.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>
<Override PartName="/xl/worksheets/lists.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>
<Override PartName="/xl/chartsheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.chartsheet+xml"/>
<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>
<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>
</Types>""",
    "_rels/.rels": f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/>
</Relationships>""",
    "xl/_rels/workbook.xml.rels": f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId7" Type="{REL}/worksheet" Target="worksheets/data.xml"/>
<Relationship Id="rId8" Type="{REL}/worksheet" Target="/xl/worksheets/lists.xml"/>
<Relationship Id="rId9" Type="{REL}/chartsheet" Target="chartsheets/sheet1.xml"/>
<Relationship Id="rId3" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>
<Relationship Id="rId4" Type="{REL}/styles" Target="styles.xml"/>
<Relationship Id="rId5" Type="{REL}/hyperlink" Target="http://example.com/" TargetMode="External"/>
</Relationships>""",
    "xl/workbook.xml": f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!-- written by hand, as Excel writes a workbook -->
<workbook xmlns="{MAIN}" xmlns:r="{REL}"><workbookPr date1904="false"/>
<sheets><sheet name="Data &amp; Notes" sheetId="1" r:id="rId7"/><sheet name="Lists" sheetId="2" r:id="rId8"/>
<sheet name="Chart1" sheetId="3" r:id="rId9"/></sheets></workbook>""",
    "xl/chartsheets/sheet1.xml": f'<chartsheet xmlns="{MAIN}"/>',
    "xl/chartsheets/_rels/sheet1.xml.rels": '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>',
    "xl/sharedStrings.xml": f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="{MAIN}" count="20" uniqueCount="20">
<si><t>name</t></si>
<si><t>rich</t></si>
<si><t>count</t></si>
<si><t>share</t></si>
<si><t>stamp</t></si>
<si><t>elapsed</t></si>
<si><t>formula</t></si>
<si><t>flag</t></si>
<si><t>when</t></si>
<si><t>Tom &amp; Jerry &lt;3 &gt; &quot;q&quot; &apos;a&apos;</t></si>
<si><t xml:space="preserve">  spaced  </t></si>
<si><t>two&#10;lines &#x41;&#233;</t></si>
<si><t><![CDATA[<raw> & text]]></t></si>
<si><t>carriage_x000D_return and _x005F_x000D_ kept</t></si>
<si><r><rPr><b/><sz val="11"/></rPr><t>Bold</t></r><r><t xml:space="preserve"> and </t></r><r><rPr><i/></rPr><t>italic</t></r></si>
<si><r><t>東京</t></r><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>
<si/>
<si><t>header</t></si>
<si><t>code</t></si>
<si><t>Ångström</t></si>
</sst>""",
    "xl/styles.xml": f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="{MAIN}">
<numFmts count="7">
<numFmt numFmtId="164" formatCode="dd/mm/yyyy\\ hh:mm"/>
<numFmt numFmtId="165" formatCode="[h]:mm:ss"/>
<numFmt numFmtId="166" formatCode="0.00%"/>
<numFmt numFmtId="167" formatCode="&quot;Day &quot;0"/>
<numFmt numFmtId="168" formatCode="yyyy\\-mm\\-dd"/>
<numFmt numFmtId="169" formatCode="[$-409]h:mm\\ AM/PM;@"/>
<numFmt numFmtId="170" formatCode="[Red]0.0;[Blue]\\-0.0"/>
</numFmts>
<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>
<cellXfs count="11">
<xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="166"/>
<xf numFmtId="167"/><xf numFmtId="168"/><xf numFmtId="169"/><xf numFmtId="170"/><xf numFmtId="22"/><xf numFmtId="20"/>
</cellXfs>
</styleSheet>""",
    # The first sheet: shared strings of every form, cached formula results, custom formats,
    # an ISO date, cells without a reference (they follow the one before), a skipped column.
    "xl/worksheets/data.xml": f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="{MAIN}" xmlns:r="{REL}"><dimension ref="A1:I8"/><sheetData>
<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c>
<c r="E1" t="s"><v>4</v></c><c r="F1" t="s"><v>5</v></c><c r="G1" t="s"><v>6</v></c><c r="H1" t="s"><v>7</v></c><c r="I1" t="s"><v>8</v></c></row>
<row r="2"><c r="A2" t="s"><v>9</v></c><c r="B2" t="s"><v>14</v></c><c r="C2"><v>7</v></c><c r="D2" s="4"><v>0.25</v></c>
<c r="E2" s="2"><v>43831.5</v></c><c r="F2" s="3"><v>1.5</v></c><c r="G2"><f>C2*2</f><v>14</v></c><c r="H2" t="b"><v>1</v></c>
<c r="I2" t="d"><v>2024-05-01T10:00:00</v></c></row>
<row r="3"><c r="A3" t="s"><v>10</v></c><c r="B3" t="s"><v>15</v></c><c r="C3"><v>8</v></c><c r="D3" s="4"><v>0.5</v></c>
<c r="E3" s="2"><v>43832.75</v></c><c r="F3" s="3"><v>0.0208333333333333</v></c><c r="G3" t="str"><f>"x"&amp;C3</f><v>x8</v></c>
<c r="H3" t="b"><f>C3&gt;7</f><v>0</v></c><c r="I3" t="d"><v>2024-05-02</v></c></row>
<row r="4"><c r="A4" t="s"><v>11</v></c><c t="s"><v>16</v></c><c><v>9</v></c><c s="4"><v>1</v></c>
<c s="2"><v>43833</v></c><c s="3"><v>30</v></c><c t="e"><f>1/0</f><v>#DIV/0!</v></c></row>
<row><c r="A5" t="s"><v>12</v></c><c r="C5"><v>1.0E+2</v></c><c r="E5" s="9"><v>45000.25</v></c><c r="G5"><f>C5</f><v>100</v></c></row>
<row r="6" spans="1:9"><c r="A6" t="s"><v>13</v></c><c r="C6" s="5"><v>3</v></c><c r="D6" s="8"><v>-0.125</v></c><c r="H6" t="b"><v>1</v></c></row>
<row r="8"><c r="A8" t="inlineStr"><is><t>inline</t><rPh sb="0" eb="6"><t>skip</t></rPh></is></c><c r="C8" s="6"><v>45292</v></c></row>
</sheetData></worksheet>""",
    # The second sheet, with a prefix on every element: two empty rows before the header, a
    # formula never calculated, a time of day in a 12-hour format, dates in a built-in format.
    "xl/worksheets/lists.xml": f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<x:worksheet xmlns:x="{MAIN}"><x:sheetData>
<x:row r="1"/><x:row r="2"><x:c r="B2" s="1"/></x:row>
<x:row r="3"><x:c r="B3" t="s"><x:v>18</x:v></x:c><x:c r="C3" t="s"><x:v>17</x:v></x:c><x:c r="D3" t="s"><x:v>4</x:v></x:c><x:c r="E3" t="s"><x:v>8</x:v></x:c></x:row>
<x:row r="4"><x:c r="B4"><x:v>1</x:v></x:c><x:c r="C4" t="s"><x:v>19</x:v></x:c><x:c r="D4" s="7"><x:v>0.75</x:v></x:c><x:c r="E4" s="1"><x:v>36526</x:v></x:c></x:row>
<x:row r="5"><x:c r="B5"><x:v>2</x:v></x:c><x:c r="C5"><x:f>B5*3</x:f></x:c><x:c r="D5" s="10"><x:v>0.5</x:v></x:c><x:c r="E5" s="1"><x:v>61</x:v></x:c></x:row>
<x:row r="6"><x:c r="B6"><x:v>3</x:v></x:c><x:c r="C6" t="s"><x:v>9</x:v></x:c><x:c r="E6" s="1"><x:v>59</x:v></x:c></x:row>
</x:sheetData></x:worksheet>""",
}


def handmade_workbook():
    path = os.path.join(HERE, "handmade.xlsx")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in HANDMADE.items():
            info = zipfile.ZipInfo(name, date_time=FIXED)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, text.encode("utf-8"))


def cell_json(cell):
    """A cell as openpyxl reads it, tagged with its kind."""
    v = cell.value
    if v is None:
        return None
    if cell.data_type == "e":
        return {"e": v}
    if isinstance(v, bool):
        return {"b": v}
    if isinstance(v, (int, float)):
        return {"n": v}
    if isinstance(v, dt.datetime):
        return {"dt": v.isoformat()}
    if isinstance(v, dt.time):
        return {"t": v.hour * 3600 + v.minute * 60 + v.second + v.microsecond / 1e6}
    if isinstance(v, dt.timedelta):
        return {"td": v.total_seconds()}
    if isinstance(v, dt.date):
        return {"dt": dt.datetime(v.year, v.month, v.day).isoformat()}
    return {"s": str(v)}


def sheets_json(path):
    """Every sheet of a workbook as openpyxl reads it: name, state and cells from A1."""
    wb = openpyxl.load_workbook(path, data_only=True)
    out = []
    for ws in wb.worksheets:
        rows = []
        for row in ws.iter_rows(min_row=1, min_col=1, max_row=ws.max_row, max_col=ws.max_column):
            rows.append([cell_json(c) for c in row])
        while rows and all(c is None for c in rows[-1]):
            rows.pop()
        out.append({"sheet": ws.title, "hidden": ws.sheet_state != "visible", "epoch1904": wb.epoch == CALENDAR_MAC_1904,
                    "rows": rows})
    return out


def write_expected(name):
    folder = os.path.join(HERE, "expected")
    os.makedirs(folder, exist_ok=True)
    for k, sheet in enumerate(sheets_json(os.path.join(HERE, name))):
        with open(os.path.join(folder, f"{name}.{k + 1}.json"), "w", encoding="utf-8") as f:
            json.dump(sheet, f, ensure_ascii=False, indent=1)
            f.write("\n")


if __name__ == "__main__":
    import sys
    if len(sys.argv) == 2:  # make.py WORKBOOK: print its sheets as JSON (the tests ask for real workbooks)
        json.dump(sheets_json(sys.argv[1]), sys.stdout, ensure_ascii=False)
        sys.exit(0)
    types_workbook()
    dates1904_workbook()
    handmade_workbook()
    for name in ["types.xlsx", "dates1904.xlsx", "handmade.xlsx"]:
        write_expected(name)
