"""Write the made-up formulary of Cedar Pharmacy (``medications.csv``) next to this script.

One row per medication and strength the pharmacy stocks: brand and generic names, strength,
form, what it treats, and whether it needs a prescription. Deterministic (no randomness).
"""

from __future__ import annotations

import csv
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent

# generic, brand, strengths, form, treats, refrigerate
DRUGS = [
    ("lisinopril", "Zestril", ["5 mg", "10 mg", "20 mg"], "tablet", "high blood pressure", False),
    ("atorvastatin", "Lipitor", ["10 mg", "20 mg", "40 mg"], "tablet", "high cholesterol", False),
    ("metformin", "Glucophage", ["500 mg", "850 mg", "1000 mg"], "tablet", "type 2 diabetes", False),
    ("levothyroxine", "Synthroid", ["25 mcg", "50 mcg", "100 mcg"], "tablet", "an underactive thyroid", False),
    ("amlodipine", "Norvasc", ["5 mg", "10 mg"], "tablet", "high blood pressure and chest pain", False),
    ("omeprazole", "Prilosec", ["20 mg", "40 mg"], "capsule", "acid reflux and heartburn", False),
    ("sertraline", "Zoloft", ["25 mg", "50 mg", "100 mg"], "tablet", "depression and anxiety", False),
    ("escitalopram", "Lexapro", ["10 mg", "20 mg"], "tablet", "depression and anxiety", False),
    ("albuterol", "ProAir HFA", ["90 mcg"], "inhaler", "asthma attacks", False),
    ("fluticasone", "Flovent HFA", ["110 mcg"], "inhaler", "asthma control", False),
    ("montelukast", "Singulair", ["10 mg"], "tablet", "asthma and allergies", False),
    ("losartan", "Cozaar", ["25 mg", "50 mg", "100 mg"], "tablet", "high blood pressure", False),
    ("gabapentin", "Neurontin", ["100 mg", "300 mg"], "capsule", "nerve pain and seizures", False),
    ("hydrochlorothiazide", "Microzide", ["12.5 mg", "25 mg"], "tablet", "high blood pressure and swelling", False),
    ("simvastatin", "Zocor", ["20 mg", "40 mg"], "tablet", "high cholesterol", False),
    ("insulin glargine", "Lantus", ["100 units/mL"], "pen", "diabetes", True),
    ("insulin lispro", "Humalog", ["100 units/mL"], "pen", "diabetes", True),
    ("amoxicillin", "Amoxil", ["500 mg"], "capsule", "bacterial infections", False),
    ("prednisone", "Deltasone", ["10 mg", "20 mg"], "tablet", "inflammation and allergic reactions", False),
    ("pantoprazole", "Protonix", ["40 mg"], "tablet", "acid reflux", False),
    ("bupropion", "Wellbutrin XL", ["150 mg", "300 mg"], "tablet", "depression and quitting smoking", False),
    ("tamsulosin", "Flomax", ["0.4 mg"], "capsule", "an enlarged prostate", False),
    ("warfarin", "Coumadin", ["5 mg"], "tablet", "preventing blood clots", False),
    ("apixaban", "Eliquis", ["5 mg"], "tablet", "preventing blood clots and strokes", False),
    ("cetirizine", "Zyrtec", ["10 mg"], "tablet", "seasonal allergies", False),
    ("ethinyl estradiol/norgestimate", "Sprintec", ["0.035 mg/0.25 mg"], "tablet", "birth control", False),
    ("estradiol", "Estrace", ["1 mg"], "tablet", "menopause symptoms", False),
    ("sumatriptan", "Imitrex", ["50 mg", "100 mg"], "tablet", "migraines", False),
    ("latanoprost", "Xalatan", ["0.005%"], "eye drops", "glaucoma", True),
    ("adalimumab", "Humira", ["40 mg/0.4 mL"], "pen", "rheumatoid arthritis and Crohn's disease", True),
    ("methylphenidate", "Ritalin", ["10 mg", "20 mg"], "tablet", "ADHD", False),
    ("clopidogrel", "Plavix", ["75 mg"], "tablet", "preventing heart attacks and strokes", False),
    ("rosuvastatin", "Crestor", ["5 mg", "10 mg", "20 mg"], "tablet", "high cholesterol", False),
    ("trazodone", "Desyrel", ["50 mg", "100 mg"], "tablet", "insomnia and depression", False),
]


def main() -> None:
    rows = []
    for generic, brand, strengths, form, treats, cold in DRUGS:
        for strength in strengths:
            rows.append({"med_id": f"M{len(rows) + 1:03d}", "brand_name": brand, "generic_name": generic,
                         "strength": strength, "form": form, "treats": treats,
                         "storage": "refrigerate" if cold else "room temperature",
                         "price_30_day": 4 + (len(rows) * 7) % 56})
    with (DATA_DIR / "medications.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
