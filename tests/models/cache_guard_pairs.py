"""Labelled request pairs for the semantic-cache guards: paraphrases that should share an answer ("hit")
and near-misses that must not ("miss").

Split by construction family BEFORE any tuning: the dev families were the only ones looked at while the
guards and their lexicon were written; the held-out families (other domains, other phrasings) were
written at the same time and only scored. Used by tests/models/test_cache_guards.py and
benchmarks/cache_guard_bench.py.
"""

from __future__ import annotations

from typing import NamedTuple


class Pair(NamedTuple):
    family: str
    label: str  # "hit": the same request reworded; "miss": a different request that reads alike
    cached: str  # the request whose answer is in the cache
    query: str  # the new request


DEV_FAMILIES = ("payments", "scheduling", "workflow", "support", "measurements")
HELD_OUT_FAMILIES = ("travel", "shop", "devops", "hr", "health")

_RAW: dict[str, dict[str, list[tuple[str, str]]]] = {
    "payments": {
        "hit": [
            ("transfer 100 USD to account 200", "please transfer 100 USD to account 200"),
            ("send $250 to my savings account", "send 250 dollars to my savings account"),
            ("pay invoice 4471 today", "please pay invoice 4471 today"),
            ("what is the balance of account 88213?", "what's the balance on account 88213?"),
            ("refund order 1234 to my credit card", "refund order #1234 to my credit card"),
            ("transfer 1,000 EUR to account 55", "transfer 1000 EUR to account 55"),
            ("how much did I spend in March 2024?", "how much did I spend during March 2024?"),
            ("split the 90 dollar bill between 3 people", "split the $90 bill between three people"),
            ("show my last 5 transactions", "show me my last five transactions"),
            ("to account 200, transfer 100 USD", "transfer 100 USD to account 200"),
            ("what fee applies to a 500 USD wire?", "what fee applies to a wire of 500 USD?"),
        ],
        "miss": [
            ("transfer 100 USD to account 200", "transfer 200 USD to account 100"),
            ("send $250 to my savings account", "send $520 to my savings account"),
            ("pay invoice 4471 today", "pay invoice 4471 tomorrow"),
            ("deposit 300 USD into checking", "withdraw 300 USD from checking"),
            ("refund order 1234 to my credit card", "refund order 1243 to my credit card"),
            ("transfer 1,000 EUR to account 55", "transfer 1,000 USD to account 55"),
            ("my balance is -40 dollars, why?", "my balance is 40 dollars, why?"),
            ("approve the payment of 75 USD", "reject the payment of 75 USD"),
            ("show my last 5 transactions", "show my first 5 transactions"),
            ("charge the card 20 USD per month", "charge the card 20 USD per week"),
            ("is a fee charged on transfers over 1000 USD?", "is a fee charged on transfers under 1000 USD?"),
            ("move 50 USD from account 3 to account 9", "move 50 USD from account 9 to account 3"),
        ],
    },
    "scheduling": {
        "hit": [
            ("book the meeting room from 3 pm to 5 pm", "book the meeting room from 15:00 to 17:00"),
            ("schedule a call on 2024-01-02", "schedule a call on January 2, 2024"),
            ("what is on my calendar for Friday?", "what's on my calendar on Friday?"),
            ("move the standup to 9:30 am", "move the standup to 9:30am"),
            ("remind me at noon to call Dana", "remind me at 12 pm to call Dana"),
            ("set a 30 minute meeting with Lee on Tuesday", "set up a 30-minute meeting with Lee on Tuesday"),
            ("cancel my 4 pm appointment", "please cancel my 4pm appointment"),
            ("block 2 hours for focus time tomorrow", "block two hours of focus time tomorrow"),
            ("when is the next team offsite?", "when's the next team offsite?"),
            ("schedule the review on the 3rd of May", "schedule the review on May 3"),
            ("from 3 pm to 5 pm, book room B", "book room B from 3 pm to 5 pm"),
        ],
        "miss": [
            ("book the meeting room from 3 pm to 5 pm", "book the meeting room from 5 pm to 3 pm"),
            ("schedule a call on 2024-01-02", "schedule a call on 2024-02-01"),
            ("what is on my calendar for Friday?", "what is on my calendar for Monday?"),
            ("move the standup to 9:30 am", "move the standup to 9:30 pm"),
            ("remind me at noon to call Dana", "remind me at midnight to call Dana"),
            ("schedule the sync before lunch", "schedule the sync after lunch"),
            ("cancel my 4 pm appointment", "confirm my 4 pm appointment"),
            ("block 2 hours for focus time tomorrow", "block 2 hours for focus time today"),
            ("set the meeting for the first week of June", "set the meeting for the last week of June"),
            ("schedule the review on the 3rd of May", "schedule the review on the 3rd of March"),
            ("meet with Lee at 10 am and Kim at 2 pm", "meet with Lee at 2 pm and Kim at 10 am"),
            ("is the office open on Saturday?", "is the office closed on Saturday?"),
        ],
    },
    "workflow": {
        "hit": [
            ("approve the pull request", "please approve the pull request"),
            ("approve the expense report from Maria", "accept the expense report from Maria"),
            ("enable two-factor authentication for the team", "turn on two-factor authentication for the team"),
            ("start the nightly build now", "start the nightly build immediately"),
            ("close ticket 5521 as resolved", "close ticket 5521 as resolved please"),
            ("assign the bug to Omar", "assign this bug to Omar"),
            ("what is the status of the Q3 roadmap?", "what's the status of the Q3 roadmap?"),
            ("merge branch feature-42 into main", "merge the feature-42 branch into main"),
            ("list all open incidents", "list every open incident"),
            ("escalate the outage to the on-call engineer", "escalate this outage to the on-call engineer"),
        ],
        "miss": [
            ("approve the pull request", "reject the pull request"),
            ("approve the expense report from Maria", "deny the expense report from Maria"),
            ("enable two-factor authentication for the team", "disable two-factor authentication for the team"),
            ("start the nightly build now", "start the nightly build later"),
            ("close ticket 5521 as resolved", "reopen ticket 5521"),
            ("assign the bug to Omar", "unassign the bug from Omar"),
            ("merge branch feature-42 into main", "merge branch feature-24 into main"),
            ("list all open incidents", "list all closed incidents"),
            ("pause the deployment pipeline", "resume the deployment pipeline"),
            ("lock the release branch", "unlock the release branch"),
            ("add Priya to the reviewers", "remove Priya from the reviewers"),
            ("archive every task except the urgent ones", "archive every task including the urgent ones"),
        ],
    },
    "support": {
        "hit": [
            ("How do I reset my account password?", "How do I reset the password for my account?"),
            ("cancel my subscription", "please cancel my subscription"),
            ("am I eligible for a refund?", "am I eligible to get a refund?"),
            ("where is my order?", "where's my order?"),
            ("I can't log in to my account", "I cannot log in to my account"),
            ("change the email address on my profile", "change the email address in my profile"),
            ("do you ship to Canada?", "do you deliver to Canada?"),
            ("how long does a refund take?", "how long does it take to get a refund?"),
            ("update my phone number to 555 0199", "update my phone number to 555-0199"),
            ("talk to a human agent", "I want to talk to a human agent"),
            ("can you tell me where my order is?", "where is my order?"),
            ("what was the total of my last order?", "what was my last order's total?"),
        ],
        "miss": [
            ("cancel my subscription", "do not cancel my subscription"),
            ("am I eligible for a refund?", "why am I ineligible for a refund?"),
            ("I can log in to my account", "I can't log in to my account"),
            ("do you ship to Canada?", "do you ship to Mexico?"),
            ("the package arrived damaged", "the package arrived undamaged"),
            ("upgrade my plan to premium", "downgrade my plan to basic"),
            ("subscribe me to the newsletter", "unsubscribe me from the newsletter"),
            ("is the warranty valid?", "is the warranty invalid?"),
            ("my order is late", "my order is early"),
            ("always send me a receipt", "never send me a receipt"),
            ("the item is available", "the item is unavailable"),
            ("send my invoice to the billing team", "send your invoice to the billing team"),
            ("who is the account manager for Acme?", "who was the account manager for Acme?"),
            ("is my card blocked?", "was my card blocked?"),
        ],
    },
    "measurements": {
        "hit": [
            ("convert -5 degrees Celsius to Fahrenheit", "convert -5 °C to Fahrenheit"),
            ("is 38.5 degrees a fever?", "is 38.5 degrees considered a fever?"),
            ("how far is 10 km in miles?", "how far is 10 kilometers in miles?"),
            ("what is 15% of 80?", "what is 15 percent of 80?"),
            ("how many grams are in 2 kg?", "how many grams are in 2 kilograms?"),
            ("will it be colder than -10 degrees tonight?", "will it get colder than -10 degrees tonight?"),
            ("how long does 3 liters of water take to boil?", "how long do 3 litres of water take to boil?"),
            ("what's 2.5 times 4?", "what is 2.5 times 4?"),
            ("is 120 km/h over the limit?", "is 120 km/h above the limit?"),
        ],
        "miss": [
            ("it is -5 degrees outside, what should I wear?", "it is 5 degrees outside, what should I wear?"),
            ("convert 10 km to miles", "convert 10 miles to km"),
            ("is 38.5 degrees a fever?", "is 35.8 degrees a fever?"),
            ("what is 15% of 80?", "what is 80% of 15?"),
            ("will it be warmer than 20 degrees?", "will it be colder than 20 degrees?"),
            ("how many grams are in 2 kg?", "how many grams are in 2 lb?"),
            ("divide 100 by 4", "divide 4 by 100"),
            ("is the maximum load 500 kg?", "is the minimum load 500 kg?"),
            ("increase the thermostat by 2 degrees", "decrease the thermostat by 2 degrees"),
            ("the temperature rose to 30 degrees", "the temperature fell to 30 degrees"),
            ("subtract 7 from 20", "subtract 20 from 7"),
        ],
    },
    # ---- held-out families: written with the dev ones, never used while the guards were tuned ----
    "travel": {
        "hit": [
            ("find flights from Paris to London on June 5", "find flights to London from Paris on June 5"),
            ("book a hotel in Rome for 3 nights", "book a hotel in Rome for three nights"),
            ("what time does flight BA117 depart?", "what time does flight BA117 leave?"),
            ("I need a window seat on my flight to Oslo", "I'd like a window seat on my flight to Oslo"),
            ("is breakfast included at the Hilton Berlin?", "does the Hilton Berlin include breakfast?"),
            ("rent a car in Denver from 2024-07-01 to 2024-07-04",
             "rent a car in Denver from July 1, 2024 to July 4, 2024"),
            ("how much is a train ticket from Lyon to Nice?", "how much does a train ticket from Lyon to Nice cost?"),
            ("check in for flight LH400", "check-in for flight LH400"),
            ("show hotels near the Louvre under 200 EUR", "show hotels close to the Louvre under 200 EUR"),
            ("can I bring 2 bags on my Delta flight?", "can I take two bags on my Delta flight?"),
            ("add a second traveller to booking QX7731", "add a 2nd traveller to booking QX7731"),
        ],
        "miss": [
            ("find flights from Paris to London on June 5", "find flights from London to Paris on June 5"),
            ("book a hotel in Rome for 3 nights", "book a hotel in Rome for 4 nights"),
            ("what time does flight BA117 depart?", "what time does flight BA117 arrive?"),
            ("I need a window seat on my flight to Oslo", "I need an aisle seat on my flight to Oslo"),
            ("is breakfast included at the Hilton Berlin?", "is breakfast excluded at the Hilton Berlin?"),
            ("rent a car in Denver from 2024-07-01 to 2024-07-04",
             "rent a car in Denver from 2024-01-07 to 2024-04-07"),
            ("how much is a train ticket from Lyon to Nice?", "how much is a train ticket from Nice to Lyon?"),
            ("check in for flight LH400", "check out of flight LH400"),
            ("show hotels near the Louvre under 200 EUR", "show hotels near the Louvre over 200 EUR"),
            ("book a one-way ticket to Madrid", "book a return ticket to Madrid"),
            ("cancel my booking for the 12th of August", "cancel my booking for the 21st of August"),
            ("is my flight to Tokyo on time?", "is my flight to Tokyo delayed?"),
        ],
    },
    "shop": {
        "hit": [
            ("add 3 blue mugs to my cart", "put three blue mugs in my cart"),
            ("what is the cheapest laptop you sell?", "which laptop is the cheapest one you sell?"),
            ("do you have size 42 running shoes?", "do you have running shoes in size 42?"),
            ("track package 7781-AB", "track my package 7781-AB"),
            ("list all products excluding refurbished ones", "list all products except refurbished ones"),
            ("buy 2 packs of AA batteries", "purchase 2 packs of AA batteries"),
            ("apply coupon SPRING10 to my order", "use coupon SPRING10 on my order"),
            ("how much is shipping for orders above 50 USD?", "what does shipping cost for orders above 50 USD?"),
            ("show me red dresses under 80 dollars", "show red dresses under $80"),
            ("is the iPhone 15 in stock?", "is the iPhone 15 currently in stock?"),
        ],
        "miss": [
            ("add 3 blue mugs to my cart", "add 13 blue mugs to my cart"),
            ("what is the cheapest laptop you sell?", "what is the most expensive laptop you sell?"),
            ("do you have size 42 running shoes?", "do you have size 24 running shoes?"),
            ("list all products excluding refurbished ones", "list all products including refurbished ones"),
            ("buy 2 packs of AA batteries", "sell 2 packs of AA batteries"),
            ("apply coupon SPRING10 to my order", "remove coupon SPRING10 from my order"),
            ("how much is shipping for orders above 50 USD?", "how much is shipping for orders below 50 USD?"),
            ("show me red dresses under 80 dollars", "show me red dresses under 80 euros"),
            ("is the iPhone 15 in stock?", "is the iPhone 15 out of stock?"),
            ("sort the results by price ascending", "sort the results by price descending"),
            ("return the 2nd item in my order", "return the 3rd item in my order"),
            ("show items that are returnable", "show items that are non-returnable"),
        ],
    },
    "devops": {
        "hit": [
            ("open port 8080 on the web server", "open port 8080 on the web server please"),
            ("restart the nginx service on host web-01", "restart nginx on host web-01"),
            ("upgrade postgres to version 16.2", "upgrade postgres to 16.2"),
            ("what is the CPU usage of db-3?", "what's the CPU usage on db-3?"),
            ("roll back the deploy of release 2.4.1", "roll back release 2.4.1's deploy"),
            ("scale the worker pool to 12 instances", "scale the worker pool up to twelve instances"),
            ("show the error logs from the last 24 hours", "show error logs for the last 24 hours"),
            ("upload backup.tar to the S3 bucket", "upload the file backup.tar to the S3 bucket"),
            ("set the cache TTL to 300 seconds", "set the cache TTL to 300 s"),
            ("run the migrations before starting the app", "run the migrations prior to starting the app"),
        ],
        "miss": [
            ("open port 8080 on the web server", "close port 8080 on the web server"),
            ("restart the nginx service on host web-01", "restart the nginx service on host web-10"),
            ("upgrade postgres to version 16.2", "downgrade postgres to version 16.2"),
            ("scale the worker pool to 12 instances", "scale the worker pool to 21 instances"),
            ("show the error logs from the last 24 hours", "show the error logs from the last 42 hours"),
            ("upload backup.tar to the S3 bucket", "download backup.tar from the S3 bucket"),
            ("set the cache TTL to 300 seconds", "set the cache TTL to 300 minutes"),
            ("run the migrations before starting the app", "run the migrations after starting the app"),
            ("allow traffic from 10.0.0.5", "block traffic from 10.0.0.5"),
            ("grant read access to the analytics team", "grant write access to the analytics team"),
            ("copy the config from staging to production", "copy the config from production to staging"),
            ("encrypt the database backups", "decrypt the database backups"),
        ],
    },
    "hr": {
        "hit": [
            ("how many vacation days do I get per year?", "how many days of vacation do I get each year?"),
            ("is the training mandatory for new hires?", "is the training required for new hires?"),
            ("submit my timesheet for week 32", "please submit my timesheet for week 32"),
            ("what is the parental leave policy?", "what's the policy on parental leave?"),
            ("schedule an interview with the candidate on Thursday",
             "set up an interview with the candidate on Thursday"),
            ("who approves overtime for the support team?", "who approves the support team's overtime?"),
            ("can contractors join the pension plan?", "are contractors able to join the pension plan?"),
            ("give Sam a 5% raise", "give Sam a 5 percent raise"),
            ("how much notice do I have to give before quitting?", "how much notice must I give before quitting?"),
        ],
        "miss": [
            ("is the training mandatory for new hires?", "is the training optional for new hires?"),
            ("is this role permanent?", "is this role temporary?"),
            ("give Sam a 5% raise", "give Sam a 15% raise"),
            ("hire two engineers for the platform team", "fire two engineers from the platform team"),
            ("employees are eligible after 6 months", "employees are ineligible after 6 months"),
            ("what benefits do part-time staff get?", "what benefits do full-time staff get?"),
            ("add her to the payroll", "add him to the payroll"),
            ("the policy applies to internal candidates", "the policy applies to external candidates"),
            ("approve Jordan's leave request", "decline Jordan's leave request"),
            ("submit my timesheet for week 32", "submit my timesheet for week 23"),
            ("is remote work allowed on Fridays?", "is remote work forbidden on Fridays?"),
        ],
    },
    "health": {
        "hit": [
            ("take 200 mg of ibuprofen every 6 hours", "take 200 mg ibuprofen every six hours"),
            ("what is a normal resting heart rate?", "what's a normal resting heart rate?"),
            ("list patients sorted by age descending", "list the patients sorted by age, descending"),
            ("show the top 10 customers by revenue", "show the 10 top customers by revenue"),
            ("how much water should I drink per day?", "how much water should I drink each day?"),
            ("is 120/80 a healthy blood pressure?", "is a blood pressure of 120/80 healthy?"),
            ("count orders placed after 2023-12-31", "count the orders placed after December 31, 2023"),
            ("average the sales of Q1 and Q2", "compute the average of Q1 and Q2 sales"),
            ("can I take aspirin with food?", "is it ok to take aspirin with food?"),
        ],
        "miss": [
            ("take 200 mg of ibuprofen every 6 hours", "take 600 mg of ibuprofen every 2 hours"),
            ("take 1 tablet twice a day", "take 2 tablets once a day"),
            ("list patients sorted by age descending", "list patients sorted by age ascending"),
            ("show the top 10 customers by revenue", "show the bottom 10 customers by revenue"),
            ("count orders placed after 2023-12-31", "count orders placed before 2023-12-31"),
            ("is a heart rate of 50 too low?", "is a heart rate of 50 too high?"),
            ("can I take aspirin with food?", "can I take aspirin without food?"),
            ("the test result was positive", "the test result was negative"),
            ("increase the dose to 5 mg", "reduce the dose to 5 mg"),
            ("sum the sales for Q1 or Q2", "sum the sales for Q1 and Q2"),
            ("show records where the value is at least 7", "show records where the value is at most 7"),
        ],
    },
}

PAIRS: list[Pair] = [Pair(family, label, cached, query) for family, groups in _RAW.items()
                     for label, items in groups.items() for cached, query in items]


def split(name: str) -> list[Pair]:
    """The ``dev`` or ``held_out`` pairs."""
    families = DEV_FAMILIES if name == "dev" else HELD_OUT_FAMILIES
    return [p for p in PAIRS if p.family in families]
