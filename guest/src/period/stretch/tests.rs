use super::*;

fn named(text: &str) -> Option<(String, String, bool)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let format = |d: NaiveDate, any: bool| {
        if any {
            d.format("--%m-%d").to_string()
        } else {
            d.format("%Y-%m-%d").to_string()
        }
    };
    named_in(&words).map(|s| (format(s.first, s.any_year), format(s.last, s.any_year), s.any_year))
}

fn days(first: &str, last: &str) -> Option<(String, String, bool)> {
    Some((first.to_owned(), last.to_owned(), first.starts_with("--")))
}

#[test]
fn a_range_between_two_dates_takes_the_month_and_year_said_once() {
    assert_eq!(
        named("What did Jo do between 3 and 7 July?"),
        days("--07-03", "--07-07")
    );
    assert_eq!(
        named("Where was John between August 11 and August 15 2023?"),
        days("2023-08-11", "2023-08-15")
    );
    assert_eq!(
        named("from May 2 to May 9, 2023, what did Ana cook?"),
        days("2023-05-02", "2023-05-09")
    );
    assert_eq!(
        named("Where was Ida from 28 December 2022 to 3 January?"),
        days("2022-12-28", "2023-01-03")
    );
    assert_eq!(named("from 28 December to 3 January"), days("--12-28", "--01-03"));
    assert_eq!(named("What is the difference between 3 and 7?"), None);
    assert_eq!(
        named("from 1 January 2022 to 1 January 2023"),
        None,
        "too long to be one time"
    );
}

#[test]
fn a_span_before_or_after_a_date_holds_the_date() {
    assert_eq!(
        named("What did John do the week before August 3, 2023 with his kids?"),
        days("2023-07-27", "2023-08-03")
    );
    assert_eq!(
        named("What did Maria join last weekend before April 10, 2023?"),
        days("2023-04-03", "2023-04-10")
    );
    assert_eq!(
        named("the puppy she got two weeks before August 11, 2023"),
        days("2023-07-28", "2023-08-11")
    );
    assert_eq!(named("a couple of days after 1 May"), days("--05-01", "--05-03"));
    // 25 October 2022 was a Tuesday: the Sunday before it was the 23rd.
    assert_eq!(
        named("What was shown on the Sunday before October 25, 2022?"),
        days("2022-10-23", "2022-10-25")
    );
    assert_eq!(named("the Friday after 3 March 2023"), days("2023-03-03", "2023-03-10"));
    assert_eq!(named("the day after Christmas 2022"), days("2022-12-24", "2022-12-27"));
    assert_eq!(named("the week prior to 2023-06-09"), days("2023-06-02", "2023-06-09"));
    assert_eq!(
        named("What did she finish before 3 June?"),
        None,
        "a bound names no span"
    );
    assert_eq!(named("18446744073709551615 weeks before 1 May"), None);
    assert_eq!(named("99 days before 1 May"), None);
    assert_eq!(named("ten days before 1 May"), days("--04-21", "--05-01"));
}

#[test]
fn a_week_or_weekend_of_a_date_and_parts_of_a_month() {
    // 14 October 2023 was a Saturday.
    assert_eq!(named("the week of 14 October 2023"), days("2023-10-09", "2023-10-15"));
    assert_eq!(named("the weekend of 14 October"), days("--10-13", "--10-15"));
    assert_eq!(
        named("Which country was Tim visiting in the second week of November?"),
        days("--11-08", "--11-14")
    );
    assert_eq!(
        named("Was the first half of September 2022 good for Nate?"),
        days("2022-09-01", "2022-09-15")
    );
    assert_eq!(
        named("the last week of February 2024"),
        days("2024-02-23", "2024-02-29")
    );
    assert_eq!(named("at the end of May"), days("--05-22", "--05-31"));
    assert_eq!(named("the last week of February"), days("--02-22", "--02-28"));
    assert_eq!(named("the beginning of March 2021"), days("2021-03-01", "2021-03-10"));
    assert_eq!(named("the first week of the course"), None);
    assert_eq!(named("Who came second of May's runners?"), None);
}

#[test]
fn a_holiday_names_a_time_when_led_or_given_a_year() {
    assert_eq!(named("What did Sam cook over Christmas?"), days("--12-24", "--12-26"));
    assert_eq!(named("Christmas 2022"), days("2022-12-24", "2022-12-26"));
    assert_eq!(
        named("What did we do at Christmas in 2022?"),
        days("2022-12-24", "2022-12-26")
    );
    assert_eq!(named("on Christmas Eve"), days("--12-24", "--12-24"));
    assert_eq!(
        named("What did we do on New Year's Eve 2023?"),
        days("2023-12-31", "2023-12-31")
    );
    assert_eq!(named("at New Year 2023"), days("2022-12-31", "2023-01-01"));
    assert_eq!(named("What did we carve on Halloween?"), days("--10-31", "--10-31"));
    assert_eq!(named("on Valentine’s Day"), days("--02-14", "--02-14"));
    assert_eq!(named("on Independence Day"), days("--07-04", "--07-04"));
    // Thanksgiving 2023 was on the 23rd of November; Easter 2024 on the 31st of March.
    assert_eq!(named("over Thanksgiving 2023"), days("2023-11-23", "2023-11-26"));
    assert_eq!(named("at Easter 2024"), days("2024-03-29", "2024-04-01"));
    assert_eq!(
        named("at Easter"),
        None,
        "Easter moves: without a year it names no days"
    );
    assert_eq!(named("at Christmas with the kids"), days("--12-24", "--12-26"));
    assert_eq!(named("Where is the Christmas tree?"), None);
    assert_eq!(named("Why was his part in the Christmas concert boring?"), None);
    assert_eq!(named("How long did Tom last at the New Year's Day dip?"), None);
    assert_eq!(
        named("What did Meg give Ollie for Christmas, and why?"),
        None,
        "a purpose"
    );
    assert_eq!(named("Did the kids like the Halloween costumes?"), None);
}

#[test]
fn words_cut_short_name_nothing() {
    for text in [
        "between",
        "from 3",
        "between 3 and",
        "the week before",
        "the week before the",
        "prior to",
        "the week of",
        "the second week of",
        "the first half",
        "the end of",
        "over Christmas",
        "New Year's",
        "the day after Easter",
        "before",
        "at",
    ] {
        let words: Vec<&str> = text.split_whitespace().collect();
        for cut in 0..=words.len() {
            let stretch = named_in(&words[..cut]);
            assert!(
                stretch.is_none() || text == "over Christmas",
                "{text:?} cut at {cut}: {stretch:?}"
            );
        }
    }
}

#[test]
fn easter_falls_on_its_known_sundays() {
    for (year, month, day) in [(2000, 4, 23), (2008, 3, 23), (2019, 4, 21), (2023, 4, 9), (2038, 4, 25)] {
        assert_eq!(easter_sunday(year), NaiveDate::from_ymd_opt(year, month, day));
    }
}

#[test]
fn a_day_lies_in_a_stretch_of_any_year_by_its_month_and_day() {
    let words: Vec<&str> = "from 28 December to 3 January".split_whitespace().collect();
    let new_year = named_in(&words).unwrap();
    assert!(new_year.holds((Some(2021), 12, 30)));
    assert!(new_year.holds((None, 1, 2)));
    assert!(!new_year.holds((Some(2021), 1, 4)));
    let words: Vec<&str> = "between 3 and 7 July 2023".split_whitespace().collect();
    let july = named_in(&words).unwrap();
    assert!(july.holds((Some(2023), 7, 5)));
    assert!(!july.holds((Some(2022), 7, 5)));
    assert!(july.holds((None, 7, 5)), "a day without a year may be of it");
}
